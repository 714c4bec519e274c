#pragma once
// Where a long run reports how far it has got.

#include <cstdint>
#include <functional>
#include <string>

namespace angara {

// Progress lines for a person watching a long run (stderr in the CLI).
using ProgressSink = std::function<void(const std::string&)>;

// One progress line: `now` against the cycle the run is planned to end at (0: no plan), the
// pace so far (simulated cycles per wall second) and the time left at that pace.
struct ProgressState {
  double wall_seconds = 0;
  const char* phase = "";
  std::uint64_t now = 0, planned_end = 0;
  double cycles_per_second = 0;
  std::uint64_t delivered = 0, outstanding = 0, queued = 0;
};
std::string progress_line(const ProgressState& s);

}  // namespace angara
