#pragma once
// Turns a sweep directory into one table (CSV), one row per point.

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

}  // namespace angara
