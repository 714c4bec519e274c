#include "models/timing/link_calendar.h"

#include <algorithm>

namespace angara {

LinkCalendar::Gap LinkCalendar::find(Cycle ready, Cycle length, Cycle floor) {
  {
    const std::span<Booking> b = m_booked.items();
    const auto expired =
        std::find_if(b.begin(), b.end(), [floor](const Booking& x) { return x.second > floor; });
    if (expired != b.begin()) m_booked.erase(0, static_cast<std::size_t>(expired - b.begin()));
  }
  const std::span<Booking> b = m_booked.items();
  // Mostly the link is free from `ready` on.
  if (b.empty() || b.back().second <= ready) return {ready, b.size()};
  // First booking that ends after `ready`; the gap before each later booking is a candidate.
  auto it = std::lower_bound(b.begin(), b.end(), ready,
                             [](const Booking& x, Cycle t) { return x.second <= t; });
  Cycle start = ready;
  for (; it != b.end(); ++it) {
    if (start + length <= it->first) break;
    start = std::max(start, it->second);
  }
  return {start, static_cast<std::size_t>(it - b.begin())};
}

Cycle LinkCalendar::book(Cycle ready, Cycle length, Cycle floor) {
  const Gap gap = find(ready, length, floor);
  place(gap.before, gap.start, gap.start + length);
  return gap.start;
}

void LinkCalendar::take(Cycle start, Cycle length) {
  const std::span<Booking> b = m_booked.items();
  const auto it = std::lower_bound(b.begin(), b.end(), start,
                                   [](const Booking& x, Cycle t) { return x.second <= t; });
  place(static_cast<std::size_t>(it - b.begin()), start, start + length);
}

// Bookings that touch are kept as one interval: a saturated link then holds a few intervals, not
// one per packet, and the search in find() stays short.
void LinkCalendar::place(std::size_t at, Cycle start, Cycle end) {
  const std::span<Booking> b = m_booked.items();
  const bool joins_before = at > 0 && b[at - 1].second == start;
  const bool joins_after = at < b.size() && b[at].first == end;
  if (joins_before && joins_after) {
    b[at - 1].second = b[at].second;
    m_booked.erase(at, at + 1);
  } else if (joins_before) {
    b[at - 1].second = end;
  } else if (joins_after) {
    b[at].first = start;
  } else {
    m_booked.insert(at, {start, end});
  }
}

Cycle LinkCalendar::book_spread(Cycle ready, Cycle length, Cycle floor) {
  Cycle at = ready;
  while (length > 0) {
    // The gap at or after `at`: from the end of the booking covering `at` (if any) to the start
    // of the next one.
    const std::span<Booking> b = m_booked.items();
    auto next = std::lower_bound(b.begin(), b.end(), at,
                                 [](const Booking& x, Cycle t) { return x.second <= t; });
    if (next != b.end() && next->first <= at) at = (next++)->second;
    const Cycle piece = next == b.end() ? length : std::min(length, next->first - at);
    book(at, piece, floor);
    at += piece;
    length -= piece;
  }
  return at;
}

}  // namespace angara
