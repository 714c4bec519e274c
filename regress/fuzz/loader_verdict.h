#pragma once
// What the config and tree loaders make of one config text, in this process and without
// simulating: refused with a ConfigError naming a key, or accepted, its trees built and
// validated and its resolved config written out and loaded back to the same config; anything
// else is a failure of the loaders.

#include <optional>
#include <string>
#include <string_view>

#include "platform/config/config.h"

namespace angara::fuzz {

enum class Verdict {
  SyntaxError,   // not TOML: a ConfigError naming the file, line and column
  Rejected,      // a ConfigError naming a key (of the format, or one the text has)
  TreeRejected,  // loaded, but a tree broke the tree validator's rules
  Accepted,      // loaded, trees valid, written back and loaded to the same config
  Failed,        // an exception other than ConfigError, a ConfigError naming no key, a config
                 // that does not load back from what config_to_toml writes
};

std::string_view verdict_name(Verdict verdict);

struct LoaderOutcome {
  Verdict verdict = Verdict::Failed;
  std::string message;           // the error's text, or what failed
  std::string key;               // the key a ConfigError named
  std::optional<Config> config;  // the config, when accepted
};

// Loads `text` as angara-sim would load a file named `origin`, then builds its trees.
LoaderOutcome judge_config_text(const std::string& text, const std::string& origin);

}  // namespace angara::fuzz
