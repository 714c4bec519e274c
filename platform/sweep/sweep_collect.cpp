#include "platform/sweep/sweep_collect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <map>
#include <sstream>

#include "models/core/config_error.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The column of the most memory a point's run held, MiB (the runner records it beside the
// results, which say only what was simulated).
constexpr const char* kPeakMemory = "peak_memory_mb";

// Scalar fields of a results file, nested objects flattened. An array of records (pingpong's
// and msgrate's `sizes`, the ranks' `each`) gives a column per record and field, named by the
// record's first field when it is a whole number or a string (sizes.4096.half_rtt_ns,
// ranks.each.1.kernel_seconds), else by the record's place. Histograms and other arrays are left
// out, and so is the echoed config (it is in the point's config.toml).
void flatten(const Json& json, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  const auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (const auto& [key, value] : json.items()) {
    if (prefix.empty() && key == "config") continue;
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      flatten(value, name, out);
    } else if (value.is_array() && key != "histogram") {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const Json& record = value[i];
        if (!record.is_object() || record.empty() || record.begin()->is_structured()) break;
        const Json& first = *record.begin();
        if (!first.is_number_integer() && !first.is_string()) {
          flatten(record, name + "." + std::to_string(i), out);
          continue;
        }
        Json rest = record;
        rest.erase(record.begin().key());
        flatten(rest, name + "." + text(first), out);
      }
    } else if (!value.is_array()) {
      out.emplace_back(name, text(value));
    }
  }
}

// TOML strings lose their quotes in the table: "bubble" or 'bubble' -> bubble.
std::string cell(const std::string& toml_value) {
  const char q = toml_value.empty() ? '\0' : toml_value.front();
  if (toml_value.size() >= 2 && (q == '"' || q == '\'') && toml_value.back() == q) {
    return toml_value.substr(1, toml_value.size() - 2);
  }
  return toml_value;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

int SweepTable::column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

std::string SweepTable::csv() const {
  std::string out;
  auto line = [&out](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += "\n";
  };
  line(columns);
  for (const auto& row : rows) line(row);
  return out;
}

SweepTable collect(const SweepDir& dir) {
  const Json manifest = dir.manifest();
  SweepTable table;
  table.columns.push_back("point");
  for (const auto& axis : manifest["axes"]) table.columns.push_back(axis);
  table.axes = static_cast<int>(manifest["axes"].size());
  std::vector<std::string> fields;  // result fields, in the order of the first results file
  std::vector<std::map<std::string, std::string>> results;
  for (const auto& p : manifest["points"]) {
    std::map<std::string, std::string> values;
    if (const auto parsed = dir.results(p["name"])) {
      std::vector<std::pair<std::string, std::string>> flat;
      flatten(*parsed, "", flat);
      if (const auto kib = dir.peak_memory_kib(p["name"])) {
        flat.emplace_back(kPeakMemory, fmt::format("{:.1f}", static_cast<double>(*kib) / 1024));
      }
      for (const auto& [k, v] : flat) {
        if (std::find(fields.begin(), fields.end(), k) == fields.end()) fields.push_back(k);
        values[k] = v;
      }
      values["status"] = "ok";
    } else {
      const fs::path point = dir.point(p["name"]);
      values["status"] = fs::exists(point / "failed")              ? "failed"
                         : fs::exists(point / "beyond_saturation") ? "beyond_saturation"
                                                                   : "missing";
    }
    results.push_back(std::move(values));
  }
  table.columns.insert(table.columns.end(), fields.begin(), fields.end());
  table.columns.push_back("status");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& p = manifest["points"][i];
    std::vector<std::string> row{p["name"]};
    for (const auto& axis : manifest["axes"])
      row.push_back(cell(p["settings"][axis.get<std::string>()]));
    for (const auto& f : fields) row.push_back(results[i].count(f) ? results[i].at(f) : "");
    row.push_back(results[i].at("status"));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace angara
