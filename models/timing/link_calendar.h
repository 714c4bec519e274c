#pragma once
// Loosely-timed contention on one channel: the intervals for which it is already booked.
// LT initiators run ahead of each other within a quantum, so packets are booked out of time
// order; a packet therefore takes the earliest free gap after its ready cycle that fits it,
// rather than queueing behind the last booking (plain busy-until).

#include <cstdint>
#include <span>
#include <utility>

#include "models/core/ids.h"
#include "models/core/small_vector.h"

namespace angara {

class alignas(64) LinkCalendar {
 public:
  // Books `length` cycles at the earliest start >= `ready` that overlaps no booking and returns
  // that start. Bookings that end at or before `floor` are forgotten first: no packet can be
  // ready before `floor` (the current SystemC cycle) any more.
  Cycle book(Cycle ready, Cycle length, Cycle floor);
  // Where book() would put a booking: its start, and the index of the first booking after it.
  struct Gap {
    Cycle start;
    std::size_t before;
  };
  // The start book() would take, without booking it.
  Cycle fit(Cycle ready, Cycle length, Cycle floor) { return find(ready, length, floor).start; }
  // The gap book() would take, without booking it.
  Gap find(Cycle ready, Cycle length, Cycle floor);
  // Books [start, start + length), which fit() found free.
  void take(Cycle start, Cycle length);
  // Books `length` cycles in `gap`, as find() returned it with no booking made since.
  void take(const Gap& gap, Cycle length) { place(gap.before, gap.start, gap.start + length); }
  // Books `length` cycles in pieces: the free gaps from `ready` on, in order, until they add up
  // to it; returns when the last piece ends. For a transfer whose parts may interleave with
  // others' (a PCIe burst is a train of TLPs), so that short bookings made ahead of time do not
  // push it behind them whole.
  Cycle book_spread(Cycle ready, Cycle length, Cycle floor);

  std::size_t bookings() const { return m_booked.size(); }

 private:
  using Booking = std::pair<Cycle, Cycle>;  // [start, end)
  void place(std::size_t at, Cycle start, Cycle end);

  // Disjoint bookings in start order. A link holds a few at a time (touching ones merge), kept
  // inside the calendar: a booking then reads one or two cache lines, where a heap buffer would
  // be one more miss per hop on a large machine.
  SmallVector<Booking, 6> m_booked;  // two cache lines in all
};

}  // namespace angara
