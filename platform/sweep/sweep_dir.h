#pragma once
// A sweep directory and its points. It holds:
//   DIR/manifest.json              the points in plan order: name and axis settings
//   DIR/points/NAME/config.toml    the point's resolved config
//   DIR/points/NAME/results.json   angara-sim's results (written whole or not at all)
//   DIR/runner.lock                the lock of the runner using the directory (its pid)
//   DIR/points/NAME/running.lock   the lock a point's simulation holds while it runs
//   DIR/points/NAME/run.log        its stdout and stderr
//   DIR/points/NAME/failed         present if the last run failed: exit status and log tail
//   DIR/points/NAME/beyond_saturation  present if it was not run: the point before it along the
//                                  until_saturated axis was saturated
// A point is done when its results.json parses; preparing a point whose config changed removes
// its old results, so a resumed sweep reruns exactly what is missing or stale.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/sweep/file_lock.h"
#include "platform/sweep/sweep_plan.h"

namespace angara {

class SweepDir {
 public:
  explicit SweepDir(std::filesystem::path root) : m_root(std::move(root)) {}

  // The runner's lock on the directory (DIR/runner.lock, holding its pid), held while the result
  // lives; a directory another runner holds is a ConfigError naming that runner's pid.
  FileLock lock() const;
  // Writes the manifest and every point's config. A directory whose manifest is another existing
  // sweep file's is refused.
  void prepare(const SweepPlan& plan) const;
  // The manifest: {"axes": [...], "points": [{"name", "settings": {key: value}}]}, and "ranks"
  // when each point runs over several MPI ranks.
  nlohmann::ordered_json manifest() const;
  std::vector<std::string> point_names() const;

  const std::filesystem::path& root() const { return m_root; }
  std::filesystem::path point(const std::string& name) const { return m_root / "points" / name; }
  // The point's results, if its results.json parses as a JSON object (a file cut short does
  // not: the point is not done and runs again).
  std::optional<nlohmann::ordered_json> results(const std::string& name) const;
  bool done(const std::string& name) const;
  // The most memory the point's last successful run held (its largest process's peak resident
  // set, KiB), if run recorded it: not for a point run as a Slurm job step.
  std::optional<long> peak_memory_kib(const std::string& name) const;

 private:
  std::filesystem::path m_root;
};

// A point of a sweep directory (the directory outlives it).
struct PointDir {
  const SweepDir* dir;
  std::string name;
  std::string after;  // the point before it along the until_saturated axis, or ""
  int ranks = 1;      // MPI ranks its run is split over
  std::filesystem::path path() const { return dir->point(name); }
  bool done() const { return dir->done(name); }
};

// The points of `dir` in plan order.
std::vector<PointDir> sweep_points(const SweepDir& dir);

}  // namespace angara
