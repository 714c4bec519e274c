#pragma once
// Reading and writing the sweep tools' small text files (manifest, configs, scripts, tables,
// plot data): every file angara-sweep writes goes through write_text, which hands it to the
// tools' one writer (platform/files/output_file.h): a temporary created exclusively beside the
// target, every write, the sync, the close and the rename checked, no symlink written through,
// and no input of the run replaced.

#include <filesystem>
#include <string>

namespace angara {

// The whole file; "" if nothing is there. A FIFO, device or directory at `path` is refused
// (never opened to wait on), as is a file that cannot be read.
std::string read_text(const std::filesystem::path& path);

// Replaces the file's contents with `text`, whole or not at all; throws a ConfigError naming
// `key` (the flag or what the file is) and the file if anything fails.
void write_text(const std::filesystem::path& path, const std::string& text,
                const std::string& key = "--out (the sweep directory)");

}  // namespace angara
