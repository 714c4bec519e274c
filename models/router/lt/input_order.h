#pragma once
// Loosely-timed FIFO order of one input VC: a packet starts only after every packet that arrived
// there before it has left through the crossbar input (head-of-line blocking; in AT the next
// packet becomes the head when the last copy of the one before is granted, and the crossbar
// input is busy until that copy's tail has passed). LT books packets out of time order, so each
// remembers its arrival and when it left, and a packet starts no earlier than the latest of
// those that arrived before it.

#include <algorithm>
#include <span>

#include "models/core/ids.h"
#include "models/core/small_vector.h"

namespace angara {

class InputOrder {
 public:
  // The first cycle a packet whose head arrived at `arrival` may start, given the packets booked
  // through this VC; those that left at or before `floor` are forgotten first (every packet still
  // to come starts later).
  Cycle earliest(Cycle arrival, Cycle floor) {
    const std::span<const Left> steps = m_steps.items();
    std::size_t gone = 0;
    while (gone < steps.size() && steps[gone].left <= floor) ++gone;
    m_steps.erase(0, gone);
    const std::size_t after = upper(arrival);
    return after == 0 ? 0 : m_steps.items()[after - 1].left;
  }
  // The packet that arrived at `arrival` has left at `left` (its last copy's tail).
  void left(Cycle arrival, Cycle left) {
    // A staircase: in order of arrival, each leaving later than every one before it, so that the
    // answer for an arrival is the last step at or before it. A packet that leaves no later than
    // one that arrived before it changes no answer; those after it that leave no later than it
    // stop mattering.
    const std::size_t after = upper(arrival);
    const std::span<const Left> steps = m_steps.items();
    if (after > 0 && steps[after - 1].left >= left) return;
    std::size_t covered = after;
    while (covered < steps.size() && steps[covered].left <= left) ++covered;
    m_steps.erase(after, covered);
    m_steps.insert(after, {arrival, left});
  }

 private:
  struct Left {
    Cycle arrival = 0;
    Cycle left = 0;
  };
  // How many steps arrived at or before `arrival`.
  std::size_t upper(Cycle arrival) const {
    const std::span<const Left> steps = m_steps.items();
    return static_cast<std::size_t>(
        std::upper_bound(steps.begin(), steps.end(), arrival,
                         [](Cycle a, const Left& l) { return a < l.arrival; }) -
        steps.begin());
  }

  SmallVector<Left, 4> m_steps;  // arrival and left both increasing
};

}  // namespace angara
