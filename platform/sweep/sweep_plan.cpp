#include "platform/sweep/sweep_plan.h"

#include <fmt/format.h>
#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/config/config_loader.h"
#include "platform/config/split_rules.h"
#include "platform/config/toml_text.h"

namespace angara {
namespace {

// An error in the sweep file's own keys ([sweep], [[axis]]); [config] keys are config keys.
ConfigError sweep_error(const std::string& where, const std::string& value,
                        const std::string& rule) {
  return ConfigError(ConfigError::Subject::SweepKey, where, value, rule);
}

// A value in TOML syntax, floats in their shortest exact form (0.05, not 0.050000000000000003).
std::string toml_text(const toml::node& node) {
  if (const auto* array = node.as_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < array->size(); ++i) out += (i ? ", " : "") + toml_text((*array)[i]);
    return out + "]";
  }
  if (auto v = node.value_exact<double>()) {
    std::string text = fmt::format("{}", *v);
    if (text.find_first_of(".einf") == std::string::npos) text += ".0";
    return text;
  }
  if (auto v = node.value_exact<std::string>()) return nlohmann::json(*v).dump();
  std::ostringstream out;
  node.visit([&out](const auto& value) { out << value; });
  return out.str();
}

// False if `node` is, or holds, a floating-point inf or nan.
bool finite_throughout(const toml::node& node) {
  if (const auto* array = node.as_array()) {
    return std::all_of(array->begin(), array->end(),
                       [](const toml::node& item) { return finite_throughout(item); });
  }
  if (const auto* real = node.as_floating_point()) return std::isfinite(real->get());
  return true;
}

// "start, stop, step" with stop included when a step lands on it (within rounding).
std::vector<std::string> expand_range(const toml::array& range, const std::string& key) {
  const auto where = key + ".range";
  if (range.size() != 3 || !range[0].is_number() || !range[1].is_number() ||
      !range[2].is_number()) {
    throw sweep_error(where, toml_text(range), "a range is [start, stop, step] of numbers");
  }
  const bool integers = range[0].is_integer() && range[1].is_integer() && range[2].is_integer();
  const double start = range[0].value<double>().value(), stop = range[1].value<double>().value(),
               step = range[2].value<double>().value();
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step)) {
    throw sweep_error(where, toml_text(range), "start, stop and step must be finite numbers");
  }
  if (!(step > 0) || stop < start) {
    throw sweep_error(where, toml_text(range), "needs step > 0 and stop >= start");
  }
  const double points = std::floor((stop - start) / step + 1e-9) + 1;
  if (!(points <= static_cast<double>(kMaxAxisValues))) {
    throw sweep_error(where, toml_text(range),
                      fmt::format("gives {:.0f} values; an axis has at most {} (raise step, or "
                                  "split the sweep)",
                                  points, kMaxAxisValues));
  }
  std::vector<std::string> values;
  const auto count = static_cast<long long>(points);
  for (long long i = 0; i < count; ++i) {
    const double v = start + static_cast<double>(i) * step;
    values.push_back(integers ? fmt::format("{}", std::llround(v)) : fmt::format("{:.12g}", v));
  }
  return values;
}

// An optional string field; absent gives "", any other type is an error (not silently ignored).
std::string string_field(const toml::table& table, const std::string& field,
                         const std::string& where) {
  const auto* node = table.get(field);
  if (!node) return {};
  if (!node->is_string()) throw sweep_error(where, toml_text(*node), "expected a string");
  return node->as_string()->get();
}

// A dotted key as the config loader reads it: "traffic . rate", "traffic.'rate'" and
// "\"traffic\".rate" are all traffic.rate. Text that is no plain dotted key stays as it is, for
// the loader to refuse.
std::string normalized_key(const std::string& key) {
  if (key.find_first_of("=#\n\r") != std::string::npos) return key;
  toml::table parsed;
  try {
    parsed = toml::parse(key + " = 0");
  } catch (const toml::parse_error&) {
    return key;
  }
  std::string out;
  const toml::table* table = &parsed;
  while (table != nullptr && table->size() == 1) {
    const toml::table* inner = nullptr;
    for (const auto& [name, value] : *table) {
      out += (out.empty() ? "" : ".") + std::string(name.str());
      inner = value.as_table();
    }
    if (inner == nullptr) return out;
    table = inner;
  }
  return key;
}

SweepAxis read_axis(const toml::table& table, int number) {
  SweepAxis axis;
  const auto where = fmt::format("axis[{}]", number);
  for (const auto& [k, v] : table) {
    const std::string name(k.str());
    if (name != "key" && name != "values" && name != "range" && name != "group" &&
        name != "until_saturated") {
      throw sweep_error(where + "." + name, toml_text(v),
                        "unknown axis field; known: key, values, range, group, until_saturated");
    }
  }
  if (!table.contains("key"))
    throw sweep_error(where + ".key", "(missing)", "every axis names a config key");
  axis.key = normalized_key(string_field(table, "key", where + ".key"));
  if (axis.key.find('.') == std::string::npos) {
    throw sweep_error(where + ".key", "\"" + axis.key + "\"",
                      "a config key is section.name, e.g. \"traffic.rate\"");
  }
  axis.group = string_field(table, "group", where + ".group");
  if (const auto* flag = table.get("until_saturated")) {
    if (!flag->is_boolean())
      throw sweep_error(where + ".until_saturated", toml_text(*flag), "expected true or false");
    axis.until_saturated = flag->as_boolean()->get();
  }
  const auto* values = table["values"].as_array();
  const auto* range = table["range"].as_array();
  if ((values != nullptr) == (range != nullptr)) {
    throw sweep_error(axis.key, "(axis)", "give the axis either values = [...] or range = [...]");
  }
  if (values) {
    if (values->size() > kMaxAxisValues) {
      throw sweep_error(axis.key, fmt::format("{} values", values->size()),
                        fmt::format("an axis has at most {} values", kMaxAxisValues));
    }
    for (const auto& v : *values) {
      if (!finite_throughout(v)) {
        throw sweep_error(axis.key, toml_text(v),
                          "axis values must be finite numbers (inf and nan are not values a "
                          "config key takes)");
      }
      axis.values.push_back(toml_text(v));
    }
  } else {
    axis.values = expand_range(*range, axis.key);
  }
  if (axis.values.empty()) throw sweep_error(axis.key, "[]", "an axis needs at least one value");
  return axis;
}

// Inline [config] tables as "section.key=value" settings.
std::vector<std::string> inline_settings(const toml::table* config) {
  std::vector<std::string> settings;
  if (!config) return settings;
  for (const auto& [section, table] : *config) {
    const auto* t = table.as_table();
    if (!t) throw sweep_error("config." + std::string(section.str()), "", "expected a table");
    for (const auto& [key, value] : *t) {
      settings.push_back(std::string(section.str()) + "." + std::string(key.str()) + "=" +
                         toml_text(value));
    }
  }
  return settings;
}

// A value as a piece of a file name: arrays joined by 'x', anything odd replaced by '_'.
std::string name_piece(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '[' || c == ']' || c == ' ' || c == '"' || c == '\'') continue;
    out += c == ','
               ? 'x'
               : (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_');
  }
  return out;
}

std::string point_name(const std::string& templ, const SweepPoint& p, int count) {
  if (templ.empty()) {
    const int width = static_cast<int>(std::to_string(std::max(count - 1, 0)).size());
    return fmt::format("point_{:0{}}", p.index, width);
  }
  std::string name;
  for (std::size_t i = 0; i < templ.size(); ++i) {
    if (templ[i] != '{') {
      name += templ[i];
      continue;
    }
    const auto close = templ.find('}', i);
    if (close == std::string::npos) throw sweep_error("sweep.name", templ, "unclosed '{'");
    const std::string key = templ.substr(i + 1, close - i - 1);
    i = close;
    if (key == "index") {
      name += std::to_string(p.index);
      continue;
    }
    auto it = std::find_if(p.settings.begin(), p.settings.end(),
                           [&](const auto& s) { return s.first == key; });
    if (it == p.settings.end()) {
      throw sweep_error("sweep.name", templ, "{" + key + "} is not an axis key or {index}");
    }
    name += name_piece(it->second);
  }
  return name;
}

}  // namespace

std::vector<std::string> sweep_dir_names(const std::vector<std::filesystem::path>& files) {
  std::map<std::string, int> stems;
  std::map<std::filesystem::path, std::string> seen;
  for (const auto& file : files) {
    ++stems[file.stem().string()];
    const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(file));
    if (!seen.emplace(path, file.string()).second) {
      throw ConfigError(ConfigError::Subject::File, file.string(), "",
                        "given twice (as " + seen[path] + " too): one sweep, one directory");
    }
  }
  std::vector<std::string> names;
  for (const auto& file : files) {
    std::string name = file.stem().string();
    if (stems[name] > 1) {
      // FNV-1a of the file's directory: stable from run to run, so a resume finds its points.
      std::uint64_t hash = 14695981039346656037ull;
      const auto where = std::filesystem::weakly_canonical(std::filesystem::absolute(file));
      for (unsigned char c : where.parent_path().string()) hash = (hash ^ c) * 1099511628211ull;
      name += fmt::format("-{:08x}", static_cast<std::uint32_t>(hash ^ (hash >> 32)));
    }
    names.push_back(name);
  }
  return names;
}

bool plain_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

SweepPlan load_sweep(const std::filesystem::path& file) {
  const toml::table root =
      parse_toml(read_input_file(file, "", "sweep file"), file.string(), "sweep file");
  for (const auto& [k, v] : root) {
    const std::string name(k.str());
    if (name != "sweep" && name != "config" && name != "axis") {
      throw sweep_error(name, toml_text(v),
                        "unknown sweep section; known: [sweep], [config], [[axis]]");
    }
  }
  SweepPlan plan;
  plan.file = file;
  const auto* sweep = root["sweep"].as_table();
  std::string base_text, origin = "built-in default", templ;
  if (sweep) {
    for (const auto& [k, v] : *sweep) {
      const std::string name(k.str());
      if (name != "base" && name != "name" && name != "ranks") {
        throw sweep_error("sweep." + name, toml_text(v), "unknown key; known: base, name, ranks");
      }
    }
    if (const auto* ranks = sweep->get("ranks")) {
      const auto n = ranks->value<std::int64_t>();
      if (!ranks->is_integer() || !n || *n < 1 || *n > kMaxSweepRanks) {
        throw sweep_error("sweep.ranks", toml_text(*ranks),
                          fmt::format("the MPI ranks each point runs over: an integer from 1 "
                                      "to {}",
                                      kMaxSweepRanks));
      }
      plan.ranks = static_cast<int>(*n);
    }
    if (const auto base = string_field(*sweep, "base", "sweep.base"); !base.empty()) {
      const auto path = file.parent_path() / base;
      base_text = read_input_file(path, "", "base config file (sweep.base)");
      origin = path.string();
    }
    templ = string_field(*sweep, "name", "sweep.name");
  }
  const auto settings = inline_settings(root["config"].as_table());

  const auto* axes = root["axis"].as_array();
  if (!axes || axes->empty())
    throw sweep_error("axis", "(none)", "a sweep needs at least one [[axis]]");
  std::map<std::string, std::size_t> keys;  // axis index by normalized key
  for (std::size_t i = 0; i < axes->size(); ++i) {
    const auto* t = (*axes)[i].as_table();
    if (!t) throw sweep_error(fmt::format("axis[{}]", i), "", "expected a table");
    plan.axes.push_back(read_axis(*t, static_cast<int>(i)));
    const auto [first, added] = keys.emplace(plan.axes.back().key, i);
    if (!added) {
      throw sweep_error(plan.axes.back().key,
                        fmt::format("axis[{}] and axis[{}]", first->second, i),
                        "this key is swept by two axes (keys are compared as the config reads "
                        "them: spaces and quotes around their parts do not count)");
    }
  }
  if (std::count_if(plan.axes.begin(), plan.axes.end(),
                    [](const SweepAxis& a) { return a.until_saturated; }) > 1) {
    throw sweep_error("axis.until_saturated", "true",
                      "only one axis walks its lines until saturation (the load axis)");
  }

  // Dimensions of the product: each ungrouped axis, and each group (its axes zipped).
  std::vector<std::vector<int>> dims;  // axis indices per dimension
  std::map<std::string, std::size_t> group_dim;
  for (std::size_t a = 0; a < plan.axes.size(); ++a) {
    const auto& g = plan.axes[a].group;
    if (!g.empty() && group_dim.count(g)) {
      auto& members = dims[group_dim[g]];
      if (plan.axes[members.front()].values.size() != plan.axes[a].values.size()) {
        throw sweep_error(plan.axes[a].key, fmt::format("group \"{}\"", g),
                          "axes zipped in one group need the same number of values");
      }
      members.push_back(static_cast<int>(a));
      continue;
    }
    if (!g.empty()) group_dim[g] = dims.size();
    dims.push_back({static_cast<int>(a)});
  }
  std::size_t count = 1;
  for (const auto& d : dims) {
    count *= plan.axes[d.front()].values.size();
    if (count > kMaxSweepPoints) {
      throw sweep_error("axis", fmt::format("{} axes", plan.axes.size()),
                        fmt::format("the axes' product has more than {} points; split the sweep",
                                    kMaxSweepPoints));
    }
  }

  // The dimension walked until saturation, and how many points one of its steps spans.
  std::size_t until = dims.size(), stride = 1;
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (std::any_of(dims[d].begin(), dims[d].end(),
                    [&](int a) { return plan.axes[a].until_saturated; })) {
      until = d;
      break;
    }
    stride *= plan.axes[dims[d].front()].values.size();
  }

  std::set<std::string> names;
  for (std::size_t i = 0; i < count; ++i) {
    SweepPoint p;
    p.index = static_cast<int>(i);
    std::vector<std::string> overrides = settings;
    std::size_t rest = i;
    std::vector<std::size_t> position(dims.size());
    for (std::size_t d = dims.size(); d-- > 0;) {  // the first dimension varies slowest
      const std::size_t n = plan.axes[dims[d].front()].values.size();
      position[d] = rest % n;
      rest /= n;
    }
    for (std::size_t a = 0; a < plan.axes.size(); ++a) {
      for (std::size_t d = 0; d < dims.size(); ++d) {
        if (std::find(dims[d].begin(), dims[d].end(), static_cast<int>(a)) == dims[d].end())
          continue;
        const auto& axis = plan.axes[a];
        p.settings.emplace_back(axis.key, axis.values[position[d]]);
        overrides.push_back(axis.key + "=" + axis.values[position[d]]);
      }
    }
    if (until < dims.size() && position[until] > 0) p.after = static_cast<int>(i - stride);
    p.config = load_config(base_text, origin, overrides);
    if (plan.ranks > 1) {
      try {
        check_splittable(p.config, plan.ranks);
      } catch (const ConfigError& e) {
        throw sweep_error(
            "sweep.ranks", std::to_string(plan.ranks),
            fmt::format("point {} cannot be split over MPI ranks: {}", p.index, e.what()));
      }
    }
    p.name = point_name(templ, p, static_cast<int>(count));
    // The name is a directory under DIR/points: it must not be empty or leave that directory.
    if (!plain_name(p.name)) {
      throw sweep_error(
          "sweep.name", templ,
          fmt::format("gives point {} the name '{}', not a plain directory name", p.index, p.name));
    }
    if (!names.insert(p.name).second) {
      throw sweep_error(
          "sweep.name", templ.empty() ? "(default)" : templ,
          fmt::format("gives two points the name '{}': add an axis key or {{index}}", p.name));
    }
    plan.points.push_back(std::move(p));
  }
  return plan;
}

}  // namespace angara
