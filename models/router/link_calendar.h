#pragma once
// Loosely-timed contention on one channel: the intervals for which it is already booked.
// LT initiators run ahead of each other within a quantum, so packets are booked out of time
// order; a packet therefore takes the earliest free gap after its ready cycle that fits it,
// rather than queueing behind the last booking (plain busy-until).

#include <boost/container/small_vector.hpp>

#include <utility>

#include "models/core/ids.h"

namespace angara {

class LinkCalendar {
 public:
  // Books `length` cycles at the earliest start >= `ready` that overlaps no booking and returns
  // that start. Bookings that end at or before `floor` are forgotten first: no packet can be
  // ready before `floor` (the current SystemC cycle) any more.
  Cycle book(Cycle ready, Cycle length, Cycle floor);
  // Books `length` cycles in pieces: the free gaps from `ready` on, in order, until they add up
  // to it; returns when the last piece ends. For a transfer whose parts may interleave with
  // others' (a PCIe burst is a train of TLPs), so that short bookings made ahead of time do not
  // push it behind them whole.
  Cycle book_spread(Cycle ready, Cycle length, Cycle floor);

  std::size_t bookings() const { return m_booked.size(); }

 private:
  // Disjoint [start, end), in start order. A link holds a few at a time (touching ones merge);
  // kept inline, a booking touches no memory beyond the calendar's own.
  boost::container::small_vector<std::pair<Cycle, Cycle>, 4> m_booked;
};

}  // namespace angara
