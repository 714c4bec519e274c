#include "workloads/params/compute_table.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>
#include <system_error>

#include "models/core/config_error.h"
#include "models/core/input_file.h"

namespace angara {
namespace {

constexpr const char* kKey = "compute.table";

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The whole field as a finite number, or false.
bool number(std::string_view field, double& out) {
  field = trimmed(field);
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), out);
  return error == std::errc() && end == field.data() + field.size() && std::isfinite(out);
}

[[noreturn]] void bad_row(const std::string& origin, int line, std::string_view text,
                          const std::string& rule) {
  throw ConfigError(kKey, fmt::format("\"{}\" line {}: \"{}\"", origin, line, text), rule);
}

}  // namespace

std::vector<TablePoint> parse_compute_table(const std::string& text, const std::string& origin) {
  std::vector<TablePoint> points;
  std::istringstream in(text);
  std::string raw;
  bool first = true;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string_view row = trimmed(raw);
    if (row.empty() || row.front() == '#') continue;
    const bool header = first && row == "work_size,time_ns";
    first = false;
    if (header) continue;
    const auto comma = row.find(',');
    TablePoint p;
    if (comma == std::string_view::npos || row.find(',', comma + 1) != std::string_view::npos ||
        !number(row.substr(0, comma), p.work) || !number(row.substr(comma + 1), p.ns)) {
      bad_row(origin, line, row, "each row is work_size,time_ns: two numbers");
    }
    if (!(p.work > 0) || p.ns < 0) {
      bad_row(origin, line, row, "a positive work size and a time of at least 0 ns");
    }
    if (!points.empty() && p.work <= points.back().work) {
      bad_row(origin, line, row,
              fmt::format("work sizes must increase from row to row (the row before has {})",
                          points.back().work));
    }
    points.push_back(p);
  }
  if (points.size() < 2) {
    throw ConfigError(
        kKey, fmt::format("\"{}\"", origin),
        fmt::format("{} row(s): a table needs at least two work_size,time_ns rows", points.size()));
  }
  return points;
}

std::vector<TablePoint> load_compute_table(const std::string& path) {
  if (path.empty()) {
    throw ConfigError(kKey, "\"\"",
                      "compute.model = \"table\" needs a CSV file of work_size,time_ns");
  }
  return parse_compute_table(read_input_file(path, kKey), path);
}

}  // namespace angara
