#include "models/timing/link_calendar.h"

#include <algorithm>

namespace angara {

void LinkCalendar::erase(std::size_t first, std::size_t last) {
  const std::span<Booking> b = booked();
  std::copy(b.begin() + static_cast<std::ptrdiff_t>(last), b.end(),
            b.begin() + static_cast<std::ptrdiff_t>(first));
  m_size -= static_cast<std::uint32_t>(last - first);
  if (m_spill.empty()) return;
  if (m_size <= kInline) {
    std::copy_n(m_spill.begin(), m_size, m_inline.begin());
    m_spill.clear();
  } else {
    m_spill.resize(m_size);
  }
}

void LinkCalendar::insert(std::size_t at, Booking b) {
  if (m_spill.empty() && m_size < kInline) {
    std::copy_backward(m_inline.begin() + static_cast<std::ptrdiff_t>(at),
                       m_inline.begin() + m_size, m_inline.begin() + m_size + 1);
    m_inline[at] = b;
  } else {
    if (m_spill.empty()) m_spill.assign(m_inline.begin(), m_inline.end());
    m_spill.insert(m_spill.begin() + static_cast<std::ptrdiff_t>(at), b);
  }
  ++m_size;
}

Cycle LinkCalendar::fit(Cycle ready, Cycle length, Cycle floor) {
  {
    const std::span<Booking> b = booked();
    const auto expired =
        std::find_if(b.begin(), b.end(), [floor](const Booking& x) { return x.second > floor; });
    if (expired != b.begin()) erase(0, static_cast<std::size_t>(expired - b.begin()));
  }
  const std::span<Booking> b = booked();
  // First booking that ends after `ready`; the gap before each later booking is a candidate.
  auto it = std::lower_bound(b.begin(), b.end(), ready,
                             [](const Booking& x, Cycle t) { return x.second <= t; });
  Cycle start = ready;
  for (; it != b.end(); ++it) {
    if (start + length <= it->first) break;
    start = std::max(start, it->second);
  }
  return start;
}

Cycle LinkCalendar::book(Cycle ready, Cycle length, Cycle floor) {
  const Cycle start = fit(ready, length, floor);
  take(start, length);
  return start;
}

void LinkCalendar::take(Cycle start, Cycle length) {
  const std::span<Booking> b = booked();
  const Cycle end = start + length;
  auto it = std::lower_bound(b.begin(), b.end(), start,
                             [](const Booking& x, Cycle t) { return x.second <= t; });
  // Bookings that touch are kept as one interval: a saturated link then holds a few intervals,
  // not one per packet, and the search in fit() stays short.
  const bool joins_before = it != b.begin() && std::prev(it)->second == start;
  const bool joins_after = it != b.end() && it->first == end;
  const auto at = static_cast<std::size_t>(it - b.begin());
  if (joins_before && joins_after) {
    std::prev(it)->second = it->second;
    erase(at, at + 1);
  } else if (joins_before) {
    std::prev(it)->second = end;
  } else if (joins_after) {
    it->first = start;
  } else {
    insert(at, {start, end});
  }
}

Cycle LinkCalendar::book_spread(Cycle ready, Cycle length, Cycle floor) {
  Cycle at = ready;
  while (length > 0) {
    // The gap at or after `at`: from the end of the booking covering `at` (if any) to the start
    // of the next one.
    const std::span<Booking> b = booked();
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
