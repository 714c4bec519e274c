#include "platform/config/config_loader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/config/config_keys.h"
#include "platform/config/config_values.h"
#include "platform/config/toml_text.h"
#include "platform/config/utf8_strings.h"

namespace angara {
namespace {

using namespace config_values;  // the readers and writers of one value

// Reads one [section] table, rejecting keys the format does not have.
void read_section(Config& config, std::string_view section, const toml::table& table) {
  std::vector<std::string_view> known;
  for (const auto& spec : key_specs()) {
    if (spec.section == section) known.push_back(spec.name);
  }
  for (const auto& [name, node] : table) {
    const std::string_view leaf = name.str();  // lambdas cannot capture a structured binding
    const std::string key = fmt::format("{}.{}", section, leaf);
    const auto spec = std::find_if(key_specs().begin(), key_specs().end(), [&](const auto& s) {
      return s.section == section && s.name == leaf;
    });
    if (spec == key_specs().end()) {
      throw ConfigError(key, written(node),
                        fmt::format("unknown key; {}known keys in [{}]: {}", key_suggestion(key),
                                    section, fmt::join(known, ", ")));
    }
    spec->read(config, node, key);
  }
}

// [[partition]]: its own keys, and the sections of the machine's config a partition may set.
constexpr std::string_view kPartition = "partition";
constexpr std::array<std::string_view, 4> kPartitionSections{"workload", "traffic", "app",
                                                             "compute"};

bool partition_section(std::string_view section) {
  return std::find(kPartitionSections.begin(), kPartitionSections.end(), section) !=
         kPartitionSections.end();
}

// Reads the [[partition]] tables once the machine's sections are read: each partition's
// workload sections start as the machine's, and its keys override them; its seed is
// sim.seed + its index unless it gives one.
void read_partitions(Config& config, const toml::node& node) {
  const auto* array = node.as_array();
  if (array == nullptr) {
    throw ConfigError(std::string(kPartition), node.is_table() ? "[partition]" : written(node),
                      "expected an array of tables: write each partition as [[partition]]");
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    const std::string prefix = fmt::format("{}[{}]", kPartition, i);
    const auto* table = (*array)[i].as_table();
    if (table == nullptr) wrong_type((*array)[i], prefix, "a table [[partition]] of keys");
    PartitionParams p;
    p.seed = config.sim.seed + i;
    Config own = config;
    for (const auto& [name, value] : *table) {
      const std::string_view leaf = name.str();
      const std::string key = fmt::format("{}.{}", prefix, leaf);
      if (leaf == "origin") {
        read_value(value, key, p.origin);
      } else if (leaf == "dims") {
        read_value(value, key, p.dims);
      } else if (leaf == "seed") {
        read_value(value, key, p.seed);
      } else if (partition_section(leaf)) {
        const auto* section = value.as_table();
        if (section == nullptr) {
          wrong_type(value, key, fmt::format("a table [partition.{}] of keys", leaf));
        }
        try {
          read_section(own, leaf, *section);
        } catch (const ConfigError& e) {
          throw ConfigError(prefix + "." + e.key(), e.value(), e.rule());
        }
      } else {
        throw ConfigError(key, written(value),
                          fmt::format("unknown key; a partition has origin, dims, seed and the "
                                      "tables {} (the machine's other sections are every "
                                      "partition's)",
                                      fmt::join(kPartitionSections, ", ")));
      }
    }
    if (p.origin.empty() || p.dims.empty()) {
      throw ConfigError(fmt::format("{}.{}", prefix, p.origin.empty() ? "origin" : "dims"), "[]",
                        "each partition gives its box: origin = [x, y, ...] (its lowest "
                        "corner) and dims = [...] (its torus's ring sizes)");
    }
    p.workload = own.workload;
    p.traffic = own.traffic;
    p.app = own.app;
    p.compute = own.compute;
    config.partitions.push_back(std::move(p));
  }
}

void read_root(Config& config, const toml::table& root) {
  const auto sections = section_names();
  for (const auto& [name, node] : root) {
    const std::string section(name.str());
    if (section == kPartition) continue;  // after the sections it inherits from
    const auto* table = node.as_table();
    if (std::find(sections.begin(), sections.end(), section) == sections.end()) {
      // Named by its first key, so the message shows the full dotted key as it was written.
      const std::string key = table != nullptr && !table->empty()
                                  ? fmt::format("{}.{}", section, table->begin()->first.str())
                                  : section;
      const auto rule = fmt::format("{}; {}known sections: {}",
                                    table != nullptr ? fmt::format("unknown section [{}]", section)
                                                     : std::string("a key outside any section"),
                                    key_suggestion(key), fmt::join(sections, ", "));
      if (table != nullptr && !table->empty()) {
        throw ConfigError(key, written(table->begin()->second), rule);
      }
      throw ConfigError(section, table != nullptr ? "{}" : written(node), rule);
    }
    if (table == nullptr) wrong_type(node, section, fmt::format("a table [{}] of keys", section));
    read_section(config, section, *table);
  }
  if (const auto* partitions = root.get(kPartition)) read_partitions(config, *partitions);
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Puts "section.key=value" into the parsed file, so it meets the same key and type checks.
void apply_override(toml::table& root, const std::string& text) {
  const auto equals = text.find('=');
  const auto dot = text.find('.');
  const auto section = trimmed(std::string_view(text).substr(0, dot));
  const auto key = dot < equals ? trimmed(std::string_view(text).substr(dot + 1, equals - dot - 1))
                                : std::string_view{};
  if (equals == std::string::npos || section.empty() || key.empty()) {
    throw ConfigError("--set", fmt::format("\"{}\"", text),
                      "expected section.key=value, e.g. traffic.rate=0.5");
  }
  if (section == kPartition) {
    throw ConfigError("--set", fmt::format("\"{}\"", text),
                      "[[partition]] tables are given in the config file, not by --set (a "
                      "partition's standalone config, angara-sim config --partition i, takes any "
                      "--set)");
  }
  const std::string value(trimmed(std::string_view(text).substr(equals + 1)));
  // The value in TOML syntax; a bare word that is not TOML (dateline) is the string itself.
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};
  }
  if (parsed.size() != 1 || !parsed.contains("v")) parsed = toml::table{{"v", value}};

  // A section that is not a table is left as it is, for read_root() to report.
  auto where = root.insert(std::string(section), toml::table{}).first;
  if (auto* table = where->second.as_table()) {
    table->insert_or_assign(std::string(key), *parsed.get("v"));
  }
}

}  // namespace

Config load_config(const std::string& toml_text, const std::string& origin,
                   const std::vector<std::string>& overrides) {
  toml::table root = parse_toml(toml_text, origin, "config");
  for (const auto& text : overrides) apply_override(root, text);
  check_utf8_strings(root);
  Config config;
  read_root(config, root);
  config.validate();
  return config;
}

Config load_config_file(const std::filesystem::path& path,
                        const std::vector<std::string>& overrides) {
  return load_config(read_input_file(path, "", "config file"), path.string(), overrides);
}

namespace {

// The keys a Stated config leaves out at their default, so that results from before each existed
// stay the same.
bool left_out(const KeySpec& spec, const Config& config) {
  if (spec.section == "faults") {  // nothing failed; or failed from the start
    return !config.faults.any() ||
           (spec.name == "fail_at_cycle" && config.faults.fail_at_cycle == 0);
  }
  if (spec.section == "stats") {
    return spec.name == "network" ? !config.stats.network : config.stats.interval_cycles == 0;
  }
  if (spec.section == "sim" && spec.name == "source_queue_packets") {
    return config.sim.source_queue_packets == SimParams{}.source_queue_packets;
  }
  if (spec.section == "sim" && spec.name == "stop_when_saturated") {
    return config.sim.stop_when_saturated;
  }
  if (spec.section == "topology" && (spec.name == "group" || spec.name == "order")) {
    return config.topology.kind != TopologyKind::Cayley;
  }
  if (spec.section == "topology" && spec.name == "generators") {
    return config.topology.kind != TopologyKind::Cayley ||
           config.topology.group != CayleyGroup::Circulant;
  }
  if (spec.section == "router" && spec.name == "switching") return !config.router.wormhole();
  if (spec.section == "router" && spec.name == "ties")
    return config.router.ties == TieRule::Positive;
  return false;
}

}  // namespace

nlohmann::ordered_json config_to_json(const Config& config, KeySet keys) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& spec : key_specs()) {
    if (keys == KeySet::Stated && left_out(spec, config)) continue;
    out[std::string(spec.section)][std::string(spec.name)] = spec.write(config);
  }
  // Not partitioned: no "partition", so that results from before partitions stay the same.
  if (config.partitions.empty()) return out;
  auto& partitions = out[std::string(kPartition)] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < config.partitions.size(); ++i) {
    const auto& p = config.partitions[i];
    const Config own = config.partition_config(i);
    nlohmann::ordered_json one = {{"origin", p.origin}, {"dims", p.dims}, {"seed", p.seed}};
    for (const auto& spec : key_specs()) {
      if (partition_section(spec.section)) {
        one[std::string(spec.section)][std::string(spec.name)] = spec.write(own);
      }
    }
    partitions.push_back(std::move(one));
  }
  return out;
}

namespace {

// A JSON value of the config in TOML syntax: scalars and arrays as JSON writes them, objects as
// inline tables.
std::string toml_value(const nlohmann::ordered_json& value) {
  if (value.is_object()) {
    std::string out = "{ ";
    for (const auto& [k, v] : value.items())
      out += (out.size() > 2 ? ", " : "") + k + " = " + toml_value(v);
    return out + " }";
  }
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + toml_value(value[i]);
    return out + "]";
  }
  return value.dump();
}

}  // namespace

std::string config_to_toml(const Config& config, KeySet keys) {
  const auto json = config_to_json(config, keys);
  std::string out;
  for (const auto& [section, table] : json.items()) {
    if (section == kPartition) {
      // Last in the file: [[partition]] with its keys, then its sections as its subtables.
      for (const auto& p : table) {
        out += "\n[[partition]]\n";
        for (const auto& [key, value] : p.items()) {
          if (!value.is_object()) out += key + " = " + toml_value(value) + "\n";
        }
        for (const auto& [name, section_keys] : p.items()) {
          if (!section_keys.is_object()) continue;
          out += "[partition." + name + "]\n";
          for (const auto& [key, value] : section_keys.items()) {
            out += key + " = " + toml_value(value) + "\n";
          }
        }
      }
      continue;
    }
    out += (out.empty() ? "[" : "\n[") + section + "]\n";
    for (const auto& [key, value] : table.items()) out += key + " = " + toml_value(value) + "\n";
  }
  return out;
}

namespace {

// The [workload] and [app] keys each kind reads (workload.kind itself always).
std::vector<std::string_view> keys_read_by(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Synthetic:
      return {};
    case WorkloadKind::Collective:
      return {"workload.op",          "workload.reduction",
              "workload.tree",        "workload.source",
              "workload.destination", "workload.payload_flits",
              "workload.repetitions", "workload.overlap",
              "workload.all_trees",   "workload.background_rate"};
    case WorkloadKind::MsgRate:
    case WorkloadKind::PingPong:
      return {"workload.peer", "workload.sizes", "workload.messages"};
    case WorkloadKind::Software:
      // overlap, all_trees and background_rate are refused by the run with their own message.
      return {"workload.op",
              "workload.reduction",
              "workload.tree",
              "workload.source",
              "workload.destination",
              "workload.payload_flits",
              "workload.repetitions",
              "workload.algorithm",
              "workload.overlap",
              "workload.all_trees",
              "workload.background_rate",
              "workload.bytes",
              "workload.segment_bytes",
              "workload.values",
              "workload.subnet_trees"};
    case WorkloadKind::Spmv:
      return {"workload.algorithm", "workload.repetitions", "app.rows", "app.nonzeros_per_row",
              "app.spmv_mflops"};
    case WorkloadKind::Heat:
      return {"workload.algorithm", "workload.repetitions", "app.grid", "app.heat_gflops",
              "app.flops_per_cell"};
  }
  return {};
}

}  // namespace

std::vector<std::string> unused_keys(const Config& config) {
  const Config defaults;
  const auto read = keys_read_by(config.workload.kind);
  std::vector<std::string> unused;
  for (const auto& spec : key_specs()) {
    if (spec.section != "workload" && spec.section != "app") continue;
    const std::string key = fmt::format("{}.{}", spec.section, spec.name);
    if (key == "workload.kind" || std::find(read.begin(), read.end(), key) != read.end()) continue;
    const auto value = spec.write(config);
    if (value != spec.write(defaults)) unused.push_back(fmt::format("{} = {}", key, value.dump()));
  }
  return unused;
}

std::string config_keys_help() {
  // A default longer than this gets its meaning on the next line, to keep the table narrow.
  constexpr std::size_t kWideDefault = 20;
  const Config defaults;
  std::vector<std::array<std::string, 3>> rows;
  rows.push_back({"key", "default", "meaning"});
  std::size_t key_width = 0;
  std::size_t default_width = 0;
  for (const auto& spec : key_specs()) {
    std::string meaning(spec.meaning);
    if (!spec.values.empty()) meaning += fmt::format("; values: {}", fmt::join(spec.values, ", "));
    rows.push_back(
        {fmt::format("{}.{}", spec.section, spec.name), spec.write(defaults).dump(), meaning});
  }
  for (const auto& row : rows) {
    key_width = std::max(key_width, row[0].size());
    if (row[1].size() <= kWideDefault) default_width = std::max(default_width, row[1].size());
  }
  // [[partition]] tables, one per partition (docs/PARTITIONS.md).
  rows.push_back({"partition.origin", "-",
                  "[[partition]]: the box's lowest corner [x, y, ...] in the machine's torus"});
  rows.push_back({"partition.dims", "-",
                  "the box's sizes: the partition's own torus (rings re-cabled inside it)"});
  rows.push_back({"partition.seed", "sim.seed+i", "the partition's sim.seed (i: its index)"});
  rows.push_back({fmt::format("partition.{{{}}}", fmt::join(kPartitionSections, ",")), "-",
                  "tables of the partition's own workload keys, over the machine's"});
  std::string out;
  for (const auto& [key, value, meaning] : rows) {
    if (value.size() > default_width) {
      out += fmt::format("{:<{}}  {}\n{:<{}}  {}\n", key, key_width, value, "",
                         key_width + 2 + default_width, meaning);
    } else {
      out += fmt::format("{:<{}}  {:<{}}  {}\n", key, key_width, value, default_width, meaning);
    }
  }
  return out;
}

}  // namespace angara
