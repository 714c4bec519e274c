#include "platform/machine/progress.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/core/duration_text.h"

namespace angara {

std::string progress_line(const ProgressState& s) {
  std::string where = fmt::format("cycle {}", s.now);
  if (s.planned_end > 0 && s.now <= s.planned_end) {
    const double left = static_cast<double>(s.planned_end - s.now);
    where = fmt::format("cycle {} of {} ({:.0f}%), {:.0f} cycles/s, ETA {}", s.now, s.planned_end,
                        100.0 * static_cast<double>(s.now) / static_cast<double>(s.planned_end),
                        s.cycles_per_second,
                        s.cycles_per_second > 0 ? duration_text(left / s.cycles_per_second) : "?");
  } else if (s.work.total > 0) {
    const double total = static_cast<double>(s.work.total);
    const double done = std::min(static_cast<double>(s.work.done) + s.work.part, total);
    where = fmt::format("{} {} of {} ({:.0f}%), cycle {}, ETA {}", s.work.unit, s.work.done,
                        s.work.total, 100.0 * done / total, s.now,
                        done > 0 ? duration_text(s.wall_seconds * (total - done) / done) : "?");
  } else if (s.planned_end > 0) {
    where = fmt::format("cycle {}, past the planned {}: waiting for the last packets", s.now,
                        s.planned_end);
  }
  return fmt::format("[{}] {} {}: {} delivered, {} outstanding, {} queued at sources",
                     duration_text(s.wall_seconds), s.phase, where, s.delivered, s.outstanding,
                     s.queued);
}

}  // namespace angara
