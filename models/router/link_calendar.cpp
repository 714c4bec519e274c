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
  const Cycle end = start + length;
  // Bookings that touch are kept as one interval: a saturated link then holds a few intervals,
  // not one per packet, and the search above stays short.
  const bool joins_before = it != m_booked.begin() && std::prev(it)->second == start;
  const bool joins_after = it != m_booked.end() && it->first == end;
  if (joins_before && joins_after) {
    std::prev(it)->second = it->second;
    m_booked.erase(it);
  } else if (joins_before) {
    std::prev(it)->second = end;
  } else if (joins_after) {
    it->first = start;
  } else {
    m_booked.insert(it, {start, end});
  }
  return start;
}

Cycle LinkCalendar::book_spread(Cycle ready, Cycle length, Cycle floor) {
  Cycle at = ready;
  while (length > 0) {
    // The gap at or after `at`: from the end of the booking covering `at` (if any) to the start
    // of the next one.
    auto next = std::lower_bound(m_booked.begin(), m_booked.end(), at,
                                 [](const auto& b, Cycle t) { return b.second <= t; });
    if (next != m_booked.end() && next->first <= at) at = (next++)->second;
    const Cycle piece = next == m_booked.end() ? length : std::min(length, next->first - at);
    book(at, piece, floor);
    at += piece;
    length -= piece;
  }
  return at;
}

}  // namespace angara
