#include "models/router/link_calendar.h"

#include <algorithm>

namespace angara {

Cycle LinkCalendar::book(Cycle ready, Cycle length, Cycle floor) {
  const auto expired = std::find_if(m_booked.begin(), m_booked.end(),
                                    [floor](const auto& b) { return b.second > floor; });
  m_booked.erase(m_booked.begin(), expired);
  // First booking that ends after `ready`; the gap before each later booking is a candidate.
  auto it = std::lower_bound(m_booked.begin(), m_booked.end(), ready,
                             [](const auto& b, Cycle t) { return b.second <= t; });
  Cycle start = ready;
  for (; it != m_booked.end(); ++it) {
    if (start + length <= it->first) break;
    start = std::max(start, it->second);
  }
  m_booked.insert(it, {start, start + length});
  return start;
}

}  // namespace angara
