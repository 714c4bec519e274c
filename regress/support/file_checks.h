#pragma once
// What tests of reading and writing files check: a file's whole text, and the ConfigError a call
// throws.

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "models/core/config_error.h"

namespace angara::test {

// The whole text of the file at `path` ("" if there is none).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The message of the ConfigError `call` throws, or "" if it throws none.
inline std::string refusal(const std::function<void()>& call) {
  try {
    call();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace angara::test
