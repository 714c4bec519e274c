#pragma once
// Runs the points of a sweep as separate angara-sim processes (one SystemC elaboration each),
// many at once, resumable. A sweep directory holds:
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
  // The manifest: {"axes": [...], "points": [{"name", "settings": {key: value}}]}.
  nlohmann::ordered_json manifest() const;
  std::vector<std::string> point_names() const;

  const std::filesystem::path& root() const { return m_root; }
  std::filesystem::path point(const std::string& name) const { return m_root / "points" / name; }
  // The point's results, if its results.json parses as a JSON object (a file cut short does
  // not: the point is not done and runs again).
  std::optional<nlohmann::ordered_json> results(const std::string& name) const;
  bool done(const std::string& name) const;

 private:
  std::filesystem::path m_root;
};

// A point of a sweep directory (the directory outlives it).
struct PointDir {
  const SweepDir* dir;
  std::string name;
  std::string after;  // the point before it along the until_saturated axis, or ""
  std::filesystem::path path() const { return dir->point(name); }
  bool done() const { return dir->done(name); }
};

// The points of `dir` in plan order.
std::vector<PointDir> sweep_points(const SweepDir& dir);

struct RunReport {
  int total = 0;
  int skipped = 0;  // already done
  int beyond = 0;   // not run: beyond saturation
  int ran = 0;
  std::vector<PointDir> failed;
};

// Runs the points that are not done, in the order given (of one sweep or several: one pool, so
// that no core idles while another sweep's long point runs), at most `jobs` at a time, with `sim`
// (the angara-sim executable). Progress goes to stderr: a bar with an ETA on a terminal, a line
// per point otherwise. A failing point is recorded and the others go on.
RunReport run_points(const std::vector<PointDir>& points, int jobs,
                     const std::filesystem::path& sim);

// The last `lines` lines of a point's log (all of it if shorter; "" for an empty log).
std::string log_tail(const std::string& text, int lines);

// The share of its run a running point has done, 0 to 1, from the last progress line in its log
// ("... (42%) ..."); 0 before the first.
double share_done(const std::string& log);

// The angara-sim next to the running executable.
std::filesystem::path sibling_executable(const std::string& name);

}  // namespace angara
