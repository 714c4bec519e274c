#include "models/timing/hold_calendar.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace angara {

std::pair<int, Cycle> HoldCalendar::held(Cycle t, Cycle at) const {
  int flits = 0;
  Cycle first_end = kNever;
  for (const Hold& h : m_holds.items()) {
    // An open hold belongs to a packet further up the call that has not yet left the buffer;
    // it counts from its start, if that is before the claim's.
    if (h.release == kNever && h.start > at) continue;
    if (h.start <= t && t < h.release) {
      flits += h.flits;
      first_end = std::min(first_end, h.release);
    }
  }
  return {flits, first_end};
}

Cycle HoldCalendar::earliest(const Claim& claim, int capacity, Cycle floor) {
  m_holds.erase_if([floor](const Hold& h) { return h.release <= floor; });
  Cycle at = claim.from;
  for (;;) {
    // Room shrinks only where a hold starts: check the claim's start, then every start inside
    // its span. Where it is short, look again once the first hold there has ended.
    auto [flits, retry] = held(at, at);
    bool fits = capacity - flits >= claim.need;
    for (const Hold& h : m_holds.items()) {
      if (!fits) break;
      if (h.start <= at || h.start >= at + claim.span || h.release == kNever) continue;
      std::tie(flits, retry) = held(h.start, at);
      fits = capacity - flits >= claim.flits;
    }
    if (fits) return at;
    if (retry == kNever) return kNever;
    at = retry;
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
