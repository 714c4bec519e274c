#pragma once
// Loosely-timed FIFO order of one input VC: a packet starts only after every packet that arrived
// there before it has left through the crossbar input (head-of-line blocking; in AT the next
// packet becomes the head when the last copy of the one before is granted, and the crossbar
// input is busy until that copy's tail has passed). LT books packets out of time order, so each
// remembers its arrival and when it left, and a packet starts no earlier than the latest of
// those that arrived before it.

#include <algorithm>

#include "models/core/ids.h"
#include "models/core/small_vector.h"

namespace angara {

class InputOrder {
 public:
  // The first cycle a packet whose head arrived at `arrival` may start, given the packets booked
  // through this VC; those that left at or before `floor` are forgotten first (every packet still
  // to come starts later).
  Cycle earliest(Cycle arrival, Cycle floor) {
    m_left.erase_if([floor](const Left& l) { return l.left <= floor; });
    Cycle at = 0;
    for (const Left& l : m_left.items()) {
      if (l.arrival <= arrival) at = std::max(at, l.left);
    }
    return at;
  }
  // The packet that arrived at `arrival` has left at `left` (its last copy's tail).
  void left(Cycle arrival, Cycle left) { m_left.push_back({arrival, left}); }

 private:
  struct Left {
    Cycle arrival = 0;
    Cycle left = 0;
  };
  SmallVector<Left, 4> m_left;
};

}  // namespace angara
