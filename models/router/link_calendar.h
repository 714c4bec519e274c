#pragma once
// Loosely-timed contention on one channel: the intervals for which it is already booked.
// LT initiators run ahead of each other within a quantum, so packets are booked out of time
// order; a packet therefore takes the earliest free gap after its ready cycle that fits it,
// rather than queueing behind the last booking (plain busy-until).

#include <utility>
#include <vector>

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
  std::vector<std::pair<Cycle, Cycle>> m_booked;  // disjoint [start, end), in start order
};

}  // namespace angara
