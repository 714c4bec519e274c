#pragma once
// Where a long run reports how far it has got.

#include <cstdint>
#include <functional>
#include <string>

namespace angara {

// Progress lines for a person watching a long run (stderr in the CLI).
using ProgressSink = std::function<void(const std::string&)>;

// Units of a workload's own (iterations, operations) done out of a total, when the end cycle is
// not known ahead: the progress line then gives their share and the time left at their pace.
struct WorkDone {
  const char* unit = "";  // singular: "iteration"
  std::uint64_t done = 0, total = 0;
  double part = 0;  // how far the unit after `done` has got, 0..1 (a long iteration's share)
};

// One progress line: `now` against the cycle the run is planned to end at (0: no plan), the
// pace so far (simulated cycles per wall second) and the time left at that pace; or, with `work`
// counted, its units done and the time left at their pace.
struct ProgressState {
  double wall_seconds = 0;
  const char* phase = "";
  std::uint64_t now = 0, planned_end = 0;
  double cycles_per_second = 0;
  std::uint64_t delivered = 0, outstanding = 0, queued = 0;
  WorkDone work = {};
};
std::string progress_line(const ProgressState& s);

}  // namespace angara
