#include "platform/config/toml_text.h"

#include <fmt/format.h>

#include "models/core/config_error.h"

namespace angara {

toml::table parse_toml(const std::string& text, const std::string& origin,
                       const std::string& what) {
  if (text.size() > kMaxTomlBytes) {
    throw ConfigError(ConfigError::Subject::File, origin, fmt::format("{} bytes", text.size()),
                      fmt::format("a {} is at most {} bytes ({} MiB): its parsed form takes "
                                  "hundreds of times its size in memory",
                                  what, kMaxTomlBytes, kMaxTomlBytes >> 20));
  }
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& error) {
    const auto& at = error.source().begin;
    throw ConfigError(ConfigError::Subject::File, origin,
                      fmt::format("line {}, column {}", at.line, at.column),
                      std::string(error.description()));
  }
}

}  // namespace angara
