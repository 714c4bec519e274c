#pragma once
// The config format's keys, one table: where each key lives in the file, what it means, how it
// is read into a Config and written back. The loader, the writers and --help are driven by it.

#include <toml++/toml.h>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "platform/config/config.h"

namespace angara {

// One config key: where it lives in the file, how it is read into a Config and written back.
struct KeySpec {
  std::string_view section;
  std::string_view name;
  std::string_view meaning;  // for --help, with units
  void (*read)(Config& config, const toml::node& node, const std::string& key);
  nlohmann::ordered_json (*write)(const Config& config);
  // The values an enumerated key accepts, for --help; empty for the others.
  std::vector<std::string_view> values{};
};

// Every key of the config format, in file order.
const std::vector<KeySpec>& key_specs();
// The sections, in file order.
std::vector<std::string_view> section_names();
// Every key as "section.name", in file order.
const std::vector<std::string_view>& dotted_keys();
// "did you mean router.buffer_flits? " for a slip of a key, written dotted or as a bare name;
// "" when nothing is near.
std::string key_suggestion(std::string_view key);

}  // namespace angara
