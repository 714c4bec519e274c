#pragma once
// Turns a sweep directory into one table (CSV) and line plots drawn by gnuplot.

#include <filesystem>
#include <string>
#include <vector>

#include "platform/sweep/sweep_runner.h"

namespace angara {

// One row per point in plan order: the point's name, its axis values, every scalar result field
// (nested ones as "latency_cycles.mean"), and its status: ok, failed or missing.
struct SweepTable {
  std::vector<std::string> columns;  // point, the axis keys, result fields, status
  int axes = 0;
  std::vector<std::vector<std::string>> rows;

  int column(const std::string& name) const;  // -1 if absent
  std::string csv() const;
};

SweepTable collect(const SweepDir& dir);

struct PlotRequest {
  std::string x, y, series;  // column names; series may be empty
  bool log_x = false;
  std::filesystem::path output;  // .png, .svg or .pdf
  bool log_y = false;
  std::string title;
};

// Draws y against x, one line per series value, from the points whose status is ok, saturated
// points as open circles, axes labelled with their units. A swept axis other than x and series
// whose points differ is refused (the lines would zig-zag between them). Writes the gnuplot data
// and script beside the output and runs gnuplot.
void plot(const SweepTable& table, const PlotRequest& request);

}  // namespace angara
