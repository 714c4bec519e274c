#pragma once
// Config strings are checked as UTF-8 when the config is loaded: they are echoed into the
// results JSON, whose writer refuses anything else, so a bad byte would otherwise end a run only
// after it had simulated everything.

#include <cstddef>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace angara {

// Where the first byte of `text` that is not part of valid UTF-8 is (overlong forms, surrogates
// and code points past U+10FFFF are invalid), or std::string_view::npos.
std::size_t invalid_utf8_at(std::string_view text);

// Throws a ConfigError naming the key ("workload.kind", "partition[0].app.grid[1]") of the first
// string value under `root` that is not valid UTF-8, with its bytes escaped.
void check_utf8_strings(const toml::table& root);

}  // namespace angara
