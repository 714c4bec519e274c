#include "platform/sweep/sweep_plot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <system_error>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/files/output_file.h"
#include "platform/sweep/child_program.h"
#include "platform/sweep/sweep_files.h"

namespace angara {
namespace {

namespace fs = std::filesystem;

// A directory made with mkdtemp beside `beside` (mode 0700, a name nobody can guess), removed
// with what is in it when it goes.
class PrivateDirectory {
 public:
  explicit PrivateDirectory(const fs::path& beside) {
    const fs::path dir = beside.has_parent_path() ? beside.parent_path() : fs::path(".");
    std::string name = (dir / (beside.filename().string() + ".XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr) {
      throw ConfigError("-o", "\"" + beside.string() + "\"",
                        fmt::format("cannot make a directory in {} for gnuplot to draw in: {}",
                                    dir.string(), std::strerror(errno)));
    }
    m_path = name;
  }
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  ~PrivateDirectory() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

bool parse_number(const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

// Control characters as spaces: the text stays on one line of a script or data file.
std::string one_line(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

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

// The points of each line, in first-appearance order of the series, saturated ones apart.
struct Lines {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<double, double>>> points, saturated;
};

void check_columns(const SweepTable& table, const PlotRequest& request, int x, int y, int series) {
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
}

Lines gather(const SweepTable& table, const PlotRequest& request, int x, int y, int series) {
  const int status = table.column("status"), saturated = table.column("saturated");
  Lines lines;
  for (const auto& row : table.rows) {
    if (row[status] != "ok") continue;
    const bool saturated_point = saturated >= 0 && row[saturated] == "true";
    if (saturated_point && !request.saturated) continue;
    double vx = 0, vy = 0;
    if (!parse_number(row[x], vx)) {
      throw ConfigError(
          "--x", request.x,
          fmt::format("value '{}' is not a number (for node counts use --x nodes)", row[x]));
    }
    if (!parse_number(row[y], vy))
      throw ConfigError("--y", request.y, fmt::format("value '{}' is not a number", row[y]));
    const std::string key = series < 0 ? request.y : request.series + " = " + row[series];
    if (!lines.points.count(key)) lines.order.push_back(key);
    lines.points[key].emplace_back(vx, vy);
    if (saturated_point) lines.saturated[key].emplace_back(vx, vy);
  }
  if (lines.order.empty()) {
    throw ConfigError("plot", table.rows.empty() ? "(no points)" : "(no ok points)",
                      "nothing to plot");
  }
  return lines;
}

// Block 2i: series i's points; block 2i + 1: its saturated ones.
std::string data_text(Lines& lines) {
  std::string data;
  for (const auto& key : lines.order) {
    for (auto* points : {&lines.points[key], &lines.saturated[key]}) {
      std::sort(points->begin(), points->end());
      data += "# " + one_line(key) + (points == &lines.saturated[key] ? " (saturated)" : "") + "\n";
      for (const auto& [vx, vy] : *points) data += fmt::format("{:.10g} {:.10g}\n", vx, vy);
      if (points->empty()) data += "NaN NaN\n";  // gnuplot skips an empty block's index
      data += "\n\n";
    }
  }
  return data;
}

// The script names no file: gnuplot -c gives it the data file as ARG1 and the figure as ARG2.
std::string script_text(const Lines& lines, const PlotRequest& request) {
  const std::string ext = request.output.extension().string();
  std::string script =
      "# run as: gnuplot -c THIS_SCRIPT DATA_FILE FIGURE (angara-sweep plot does)\n";
  script += ext == ".png"   ? "set terminal pngcairo size 960,640 font 'sans,11'\n"
            : ext == ".svg" ? "set terminal svg size 960,640 dynamic font 'sans,11'\n"
                            : "set terminal pdfcairo size 7in,4.6in font 'sans,9'\n";
  script += "set output ARG2\n";
  script += "set xlabel " + gnuplot_quoted(axis_label(request.x)) + "\nset ylabel " +
            gnuplot_quoted(axis_label(request.y)) + "\n";
  script += "set termoption noenhanced\nset grid\nset key top left box opaque\n";
  script += request.log_x ? "set logscale x 2\n" : "";
  script += request.log_y ? "set logscale y 10\n" : "";
  if (!request.title.empty()) script += "set title " + gnuplot_quoted(request.title) + "\n";
  script += "plot ";
  for (std::size_t i = 0; i < lines.order.size(); ++i) {
    script += fmt::format(
        "{}ARG1 index {} using 1:2 with linespoints lw 2 pt 7 lc {} title {}, \\\n"
        "     ARG1 index {} using 1:2 with points pt 6 ps 2 lc {} notitle",
        i ? ", \\\n     " : "", 2 * i, i + 1, gnuplot_quoted(lines.order[i]), 2 * i + 1, i + 1);
  }
  const bool any_saturated = std::any_of(lines.saturated.begin(), lines.saturated.end(),
                                         [](const auto& line) { return !line.second.empty(); });
  if (any_saturated) {
    script += ", \\\n     NaN with points pt 6 ps 2 lc black title 'saturated'";
  }
  return script + "\n";
}

}  // namespace

std::string gnuplot_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : one_line(text)) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

void plot(const SweepTable& table, const PlotRequest& request) {
  const int x = table.column(request.x), y = table.column(request.y);
  const int series = request.series.empty() ? -1 : table.column(request.series);
  check_columns(table, request, x, y, series);
  Lines lines = gather(table, request, x, y, series);
  const fs::path base = fs::path(request.output).replace_extension();
  const fs::path data = base.string() + ".dat", script = base.string() + ".gp";
  // The dry pass: all three files checked before any is written.
  check_output_paths(
      {{"-o", request.output}, {"-o (its .dat data file)", data}, {"-o (its .gp script)", script}});
  write_text(data, data_text(lines), "-o (its .dat data file)");
  write_text(script, script_text(lines, request), "-o (its .gp script)");
  // gnuplot draws into a directory of our own, made fresh beside the figure, and the figure
  // goes to its place through write_text like every other file.
  const PrivateDirectory drawing(request.output);
  const fs::path drawn = drawing.path() / ("figure" + request.output.extension().string());
  ProgramResult result;
  try {
    result = run_program({"gnuplot", "-c", script.string(), data.string(), drawn.string()}, false);
  } catch (const ProgramNotFound& e) {
    throw std::runtime_error(std::string(e.what()) +
                             " (is gnuplot installed? apt-get install gnuplot-nox)");
  }
  if (!result.ok()) {
    throw std::runtime_error(
        fmt::format("gnuplot failed ({}) drawing {}: its message is above; "
                    "the script is {}",
                    exit_text(result.wait_status), request.output.string(), script.string()));
  }
  write_text(request.output, read_regular_file(drawn), "-o");
}

}  // namespace angara
