#include "platform/sweep/sweep_files.h"

#include <system_error>

#include "models/core/input_file.h"
#include "platform/files/output_file.h"

namespace angara {

std::string read_text(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return "";
  return read_regular_file(path);
}

void write_text(const std::filesystem::path& path, const std::string& text,
                const std::string& key) {
  write_file(text, path, key);
}

}  // namespace angara
