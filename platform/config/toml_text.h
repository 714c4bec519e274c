#pragma once
// TOML text a user gave (a config file, a sweep file) parsed within one size bound: the parsed
// form takes hundreds of times its text's size in memory, so a stray file must not exhaust it
// before any key is read.

#include <cstddef>
#include <string>

#include <toml++/toml.h>

namespace angara {

// The largest TOML text parse_toml() parses, bytes.
inline constexpr std::size_t kMaxTomlBytes = std::size_t{4} << 20;

// Parses `text`, read from `origin` (a path, used in messages). Throws a ConfigError naming the
// file: past kMaxTomlBytes ("a `what` is at most ... bytes", `what` being "config" or "sweep
// file"), or where the syntax is wrong (line and column).
toml::table parse_toml(const std::string& text, const std::string& origin, const std::string& what);

}  // namespace angara
