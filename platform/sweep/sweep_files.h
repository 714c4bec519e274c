#pragma once
// Reading and writing the sweep tools' small text files (manifest, configs, scripts, tables,
// plot data): every file angara-sweep writes goes through write_text, so there is one place to
// make writing safe.

#include <filesystem>
#include <string>

namespace angara {

// The whole file; "" if it cannot be read.
std::string read_text(const std::filesystem::path& path);

// Replaces the file's contents with `text`; throws naming the file if any write or the close
// fails.
void write_text(const std::filesystem::path& path, const std::string& text);

}  // namespace angara
