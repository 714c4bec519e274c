#pragma once
// A sweep: a base config plus axes of config keys, expanded into named points. Axes combine as a
// cartesian product, the first axis varying slowest; axes sharing a `group` are zipped (walked
// together, so they must have equal lengths). Every point's config is resolved and validated
// through the one config loader before anything runs.
//
// Sweep file (TOML):
//   [sweep]
//   base = "../configs/default.toml"   # optional, relative to the sweep file
//   name = "{topology.dims}_r{traffic.rate}"   # optional point-name template; {index} too
//   ranks = 2                           # optional: every point one run over 2 MPI ranks
//   [config.sim]                        # optional inline settings over the base
//   measure_cycles = 5000
//   [[axis]]
//   key = "traffic.rate"
//   range = [0.05, 0.40, 0.05]          # start, stop (inclusive), step; or values = [...]
//   [[axis]]
//   key = "router.deadlock"
//   values = ["bubble", "dateline"]
//   group = "scheme"                    # optional: zipped with other axes of the same group
//   [[axis]]
//   key = "traffic.rate"
//   values = [0.1, 0.2, 0.3]
//   until_saturated = true              # optional, one axis: walked in order, and once a point
//                                       # is saturated the rest of its line is not run

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "platform/config/config.h"

namespace angara {

// Limits that keep a typo in a range (a step of 1e-9) from expanding into more points than the
// machine can hold: values per axis, and points of a whole sweep.
inline constexpr std::size_t kMaxAxisValues = 10000;
inline constexpr std::size_t kMaxSweepPoints = 100000;
inline constexpr int kMaxSweepRanks = 4096;  // MPI ranks per point

struct SweepAxis {
  std::string key;                  // config key, "section.name"
  std::vector<std::string> values;  // each in TOML syntax
  std::string group;                // empty: an axis of its own
  bool until_saturated = false;     // its line stops after the first saturated point
};

struct SweepPoint {
  int index = 0;
  std::string name;
  std::vector<std::pair<std::string, std::string>> settings;  // (key, TOML value), axis order
  int after = -1;  // the point before it along the until_saturated axis, if any
  Config config;
};

struct SweepPlan {
  std::filesystem::path file;
  int ranks = 1;  // MPI ranks each point's run is split over ([sweep] ranks)
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;
};

// The directory of each sweep file of one run under --out: its name without .toml, or where two
// files share that name, the name and a hash of the file's directory ("load-3f2a9c1e"), so that
// neither's results land in the other's. The same file given twice is a ConfigError.
std::vector<std::string> sweep_dir_names(const std::vector<std::filesystem::path>& files);

// Whether `name` can be a point's directory under DIR/points: not empty, not "." or "..", no '/'.
bool plain_name(const std::string& name);

// Reads and expands a sweep file; a bad file is a ConfigError naming the key and the rule.
SweepPlan load_sweep(const std::filesystem::path& file);

}  // namespace angara
