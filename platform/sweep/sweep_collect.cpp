#include "platform/sweep/sweep_collect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/files/output_file.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Scalar fields of a results file, nested objects flattened. An array of records (pingpong's
// and msgrate's `sizes`) gives a column per record and field, named by the record's first field:
// sizes.4096.half_rtt_ns. Histograms and other arrays are left out, and so is the echoed config
// (it is in the point's config.toml).
void flatten(const Json& json, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  const auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (const auto& [key, value] : json.items()) {
    if (prefix.empty() && key == "config") continue;
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      flatten(value, name, out);
    } else if (value.is_array() && key != "histogram") {
      for (const auto& record : value) {
        if (!record.is_object() || record.empty() || record.begin()->is_structured()) break;
        Json rest = record;
        rest.erase(record.begin().key());
        flatten(rest, name + "." + text(*record.begin()), out);
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

bool parse_number(const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
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
    const fs::path file = dir.point(p["name"]) / "results.json";
    if (fs::exists(file)) {
      std::vector<std::pair<std::string, std::string>> flat;
      flatten(Json::parse(read_regular_file(file)), "", flat);
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

namespace {

// A column's name with its unit, for an axis: from the config keys' and result fields' naming.
std::string axis_label(const std::string& column) {
  static const std::pair<const char*, const char*> kUnits[] = {
      {"_ns", "ns"},
      {"_us", "us"},
      {"gbit_s", "Gbit/s"},
      {"_seconds", "s"},
      {"_cycles", "router cycles"},
      {"flits_per_node_cycle", "flits/node/cycle"},
      {"traffic.rate", "flits/node/cycle"},
      {"_mhz", "MHz"},
      {"_gbps", "Gbit/s"},
      {"bytes", "B"},
  };
  for (const auto& [part, unit] : kUnits) {
    if (column.find(part) != std::string::npos) return fmt::format("{} ({})", column, unit);
  }
  return column;
}

}  // namespace

void plot(const SweepTable& table, const PlotRequest& request) {
  const int x = table.column(request.x), y = table.column(request.y);
  const int series = request.series.empty() ? -1 : table.column(request.series);
  const int status = table.column("status");
  for (const auto& [name, index] : {std::pair{request.x, x}, {request.y, y}}) {
    if (index < 0) {
      throw ConfigError(
          "--x/--y", name,
          "no such column; columns: " + fmt::format("{}", fmt::join(table.columns, ", ")));
    }
  }
  if (!request.series.empty() && series < 0) {
    throw ConfigError("--series", request.series, "no such column");
  }
  const std::string ext = request.output.extension().string();
  if (ext != ".png" && ext != ".svg" && ext != ".pdf") {
    throw ConfigError("-o", request.output.string(),
                      "the figure must be a .png, .svg or .pdf file");
  }
  const fs::path base = fs::path(request.output).replace_extension();
  // The figure is gnuplot's to write, after its data and script: all three checked first.
  check_output_paths({{"-o", request.output},
                      {"-o (its .dat data file)", base.string() + ".dat"},
                      {"-o (its .gp script)", base.string() + ".gp"}});
  // Points at one x on one line must not differ in another axis: the line would zig-zag.
  std::map<std::pair<std::string, std::string>, const std::vector<std::string>*> first;
  for (const auto& row : table.rows) {
    const auto* other =
        first.try_emplace({row[x], series < 0 ? "" : row[series]}, &row).first->second;
    for (int a = 1; a <= table.axes; ++a) {
      if (a == x || a == series || row[a] == (*other)[a]) continue;
      throw ConfigError("--series", request.series.empty() ? "(none)" : request.series,
                        fmt::format("points on one line differ in axis {} too; draw a line per "
                                    "value with --series {}",
                                    table.columns[a], table.columns[a]));
    }
  }
  const int saturated = table.column("saturated");
  // Points per series, in first-appearance order, sorted by x; saturated ones apart.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<double, double>>> lines, marked;
  for (const auto& row : table.rows) {
    if (row[status] != "ok") continue;
    double vx = 0, vy = 0;
    if (!parse_number(row[x], vx)) {
      throw ConfigError(
          "--x", request.x,
          fmt::format("value '{}' is not a number (for node counts use --x nodes)", row[x]));
    }
    if (!parse_number(row[y], vy))
      throw ConfigError("--y", request.y, fmt::format("value '{}' is not a number", row[y]));
    const std::string key = series < 0 ? request.y : request.series + " = " + row[series];
    if (!lines.count(key)) order.push_back(key);
    lines[key].emplace_back(vx, vy);
    if (saturated >= 0 && row[saturated] == "true") marked[key].emplace_back(vx, vy);
  }
  if (order.empty()) {
    throw ConfigError("plot", table.rows.empty() ? "(no points)" : "(no ok points)",
                      "nothing to plot");
  }

  std::ostringstream data;
  // Block 2i: series i's points; block 2i + 1: its saturated ones.
  for (const auto& key : order) {
    for (auto* points : {&lines[key], &marked[key]}) {
      std::sort(points->begin(), points->end());
      data << "# " << key << (points == &marked[key] ? " (saturated)" : "") << "\n";
      for (const auto& [vx, vy] : *points) data << fmt::format("{:.10g} {:.10g}\n", vx, vy);
      if (points->empty()) data << "NaN NaN\n";  // gnuplot skips an empty block's index
      data << "\n\n";
    }
  }
  write_file(data.str(), base.string() + ".dat", "-o (its .dat data file)");
  std::ostringstream script;
  script << (ext == ".png"   ? "set terminal pngcairo size 960,640 font 'sans,11'\n"
             : ext == ".svg" ? "set terminal svg size 960,640 dynamic font 'sans,11'\n"
                             : "set terminal pdfcairo size 7in,4.6in font 'sans,9'\n");
  script << "set output '" << request.output.string() << "'\n"
         << "set xlabel '" << axis_label(request.x) << "'\nset ylabel '" << axis_label(request.y)
         << "'\n"
         << "set termoption noenhanced\nset grid\nset key top left box opaque\n"
         << (request.log_x ? "set logscale x 2\n" : "")
         << (request.log_y ? "set logscale y 10\n" : "");
  if (!request.title.empty()) {
    std::string title;  // in gnuplot's single quotes, a quote is doubled
    for (char ch : request.title) title += ch == '\'' ? std::string("''") : std::string(1, ch);
    script << "set title '" << title << "'\n";
  }
  script << "plot ";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string file = "'" + base.string() + ".dat'";
    script << (i ? ", \\\n     " : "") << file << " index " << 2 * i
           << " using 1:2 with linespoints lw 2 pt 7 lc " << i + 1 << " title '" << order[i]
           << "', \\\n     " << file << " index " << 2 * i + 1
           << " using 1:2 with points pt 6 ps 2 lc " << i + 1 << " notitle";
  }
  if (!marked.empty()) script << ", \\\n     NaN with points pt 6 ps 2 lc black title 'saturated'";
  script << "\n";
  write_file(script.str(), base.string() + ".gp", "-o (its .gp script)");
  const std::string command = fmt::format("gnuplot '{}.gp'", base.string());
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("gnuplot failed (is it installed? apt-get install gnuplot-nox): " +
                             command);
  }
}

}  // namespace angara
