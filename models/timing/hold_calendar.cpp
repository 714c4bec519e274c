#include "models/timing/hold_calendar.h"

#include <algorithm>
#include <stdexcept>

namespace angara {

Cycle HoldCalendar::earliest(Cycle from, int need, int capacity, Cycle floor) {
  m_holds.erase_if([floor](const Hold& h) { return h.release <= floor; });
  Cycle at = from;
  for (;;) {
    int held = 0;
    Cycle next_release = kNever;  // the first hold at `at` to end: room can grow only then
    for (const Hold& h : m_holds.items()) {
      if (h.start <= at && at < h.release) {
        held += h.flits;
        next_release = std::min(next_release, h.release);
      }
    }
    if (capacity - held >= need || next_release == kNever) {
      return capacity - held >= need ? at : kNever;
    }
    at = next_release;
  }
}

void HoldCalendar::open(Cycle start, int flits) {
  m_holds.push_back({start, kNever, flits});
}

void HoldCalendar::close(Cycle release) {
  const std::span<Hold> holds = m_holds.items();
  const auto open =
      std::find_if(holds.rbegin(), holds.rend(), [](const Hold& h) { return h.release == kNever; });
  if (open == holds.rend()) throw std::logic_error("HoldCalendar::close: no hold is open");
  open->release = std::max(release, open->start);
}

}  // namespace angara
