#pragma once
// Loosely-timed flow control of one buffer: the flits each packet holds in it, and from when to
// when. A sender in AT may start a packet when its credits show room; credits are spent at the
// start and come back once the packet has left the buffer. LT knows both ends of that interval
// when it books a packet through the whole network in one call, so it keeps the intervals
// (holds) instead of a counter, and asks when the buffer first has room at or after a cycle.
// Packets are booked out of time order (LT initiators run ahead of each other), so the room
// is that at the cycle asked, as AT's counter would show it then.

#include <cstdint>

#include "models/core/ids.h"
#include "models/core/small_vector.h"

namespace angara {

class HoldCalendar {
 public:
  // The earliest cycle >= `from` at which the buffer of `capacity` flits has `need` free, given
  // the holds known now. Holds that ended at or before `floor` are forgotten first (no packet
  // starts before the current cycle). kNever if only a hold still open could make room.
  Cycle earliest(Cycle from, int need, int capacity, Cycle floor);
  // A packet of `flits` flits holds the buffer from `start` until close() says when it left.
  void open(Cycle start, int flits);
  // The open hold ends at `release` (the sender's credits are due then).
  void close(Cycle release);

  std::size_t holds() const { return m_holds.size(); }

 private:
  struct Hold {
    Cycle start = 0;
    Cycle release = kNever;  // kNever: open
    int flits = 0;
  };
  SmallVector<Hold, 4> m_holds;  // unordered; a buffer holds a few packets at a time
};

}  // namespace angara
