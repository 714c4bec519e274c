#pragma once
// The only place where text becomes parameters: TOML config files and `--set key=value`
// overrides into a validated Config. Every error is a ConfigError naming the key.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"

namespace angara {

// Parses `toml_text` (from `origin`, used in messages), applies `overrides` ("section.key=value",
// the value in TOML syntax; a bare word is taken as a string), checks that every key is known and
// validates the result. Keys not given keep the Table 1 defaults of params.h.
Config load_config(const std::string& toml_text, const std::string& origin,
                   const std::vector<std::string>& overrides);

// The same for a file; a missing or unreadable file is a ConfigError too.
Config load_config_file(const std::filesystem::path& path,
                        const std::vector<std::string>& overrides);

// Which keys the JSON and TOML below carry. Stated: every key but a few left out at their default
// (no [faults] with none failed, no [stats] with statistics off, no router.switching with cut
// through, no sim.source_queue_packets at its default), so that results and sweep points from
// before those keys existed stay the same. Every: all of them.
enum class KeySet { Stated, Every };

// The resolved config as JSON, keyed like the TOML file (echoed into results).
nlohmann::ordered_json config_to_json(const Config& config, KeySet keys = KeySet::Stated);

// The resolved config as a TOML file, which loads back to the same config.
std::string config_to_toml(const Config& config, KeySet keys = KeySet::Stated);

// One line per config key: "section.key  default  meaning", for --help.
std::string config_keys_help();

// The [workload] and [app] keys set away from their defaults that the run's workload.kind does
// not read, each as "section.key = value": they are ignored, and angara-sim warns of them (a bad
// value is an error whatever the kind; this is only for good values that do nothing).
std::vector<std::string> unused_keys(const Config& config);

}  // namespace angara
