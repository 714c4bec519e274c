#pragma once
// Worm-bubble flow control: the bubble with wormhole switching on a torus (router.deadlock =
// "bubble", router.switching = "wormhole"), as the SKIF network runs it. A packet longer than a
// buffer spans several routers, so the bubble cannot be a free packet's room in the next buffer;
// it is an empty buffer kept in every ring, as in the worm-bubble schemes (Chen and Pinkston).
//
// Rules, for the point-to-point VCs of a ring (a direction of a torus line, one VC):
// 1. A packet takes a ring's VC only when its buffer is empty, and holds it until its tail has
//    left (RouterCore asks for all the buffer's flits; a worm already holds it so).
// 2. A packet enters a ring (from its node, the PEGroup or another direction) only if the ring's
//    packets, each counted by the buffers it fills packed behind its head, ceil(flits / buffer),
//    then count at most N - 1 of the ring's N buffers with it. It counts from the hop that enters
//    the ring to the hop that leaves it (its head taking another output).
//
// Why it cannot deadlock. Routes take the directions in a fixed order (around failures each leg
// in order on VCs of its own, so a ring on another VC), so a packet leaving a ring waits only
// for a ring later in that order or for its endpoint: it suffices that no ring blocks
// by itself. Suppose packets of ring R wait for ever. Once all that can move has moved, each
// packet in R stands packed behind its head (its flits move up inside the buffers it holds, and a
// buffer its tail has left is empty), so it holds at most its count of buffers and, by rule 2,
// one buffer F of R is empty. Go back from F to the first held buffer: it holds a packet's head
// (a packet's buffers follow one another), whose next buffer is F. If that packet leaves R it is
// not stuck for good (the order of the rings); if it goes on along R it needs F empty (rule 1),
// and F is: it moves. A packet waiting to enter R waits only for counts that leave with packets
// that move. The channels and crossbar inputs are held only for a packet's serialization time.
// ring_budget_test checks the rules; wormhole_fabric_test runs small tori at offered 1.0.
//
// AT keeps the counts (rule 2) in one object all routers of the machine share, and wakes the
// routers waiting on a ring when a packet leaves it. LT books each path ahead in time and cannot
// deadlock; it follows rule 1 only, and its validity verdict flags the loads where rule 2 binds.

#include <functional>
#include <vector>

#include "models/topology/torus.h"

namespace angara {

class RingBudget {
 public:
  // `vcs`: point-to-point VCs per port; `buffer_flits`: each one's size.
  RingBudget(const Torus& torus, int vcs, int buffer_flits);

  // The ring output `dir` of `router`, VC `vc`, feeds.
  int ring(NodeId router, PortId dir, VcId vc) const;
  // Buffers a packet of `flits` flits fills packed behind its head.
  int buffers(int flits) const { return (flits + m_buffer_flits - 1) / m_buffer_flits; }
  // Rule 2: whether a packet of `flits` may enter `ring` now.
  bool admits(int ring, int flits) const { return m_counted[ring] + buffers(flits) < size(ring); }
  void enter(int ring, int flits) { m_counted[ring] += buffers(flits); }
  // A packet of `flits` leaves `ring` at cycle `now`: the routers waiting on it are woken for the
  // cycle after.
  void leave(int ring, int flits, Cycle now);
  // `wake` (a router's, kept by it) is called when a packet next leaves `ring`.
  void wait(int ring, const std::function<void(Cycle)>* wake);

  int counted(int ring) const { return m_counted[ring]; }

 private:
  // Its buffers: the routers along it.
  int size(int ring) const {
    return m_torus.size(Direction::from_index(ring / m_vcs % m_torus.direction_count()).dim);
  }

  const Torus& m_torus;
  int m_vcs;
  int m_buffer_flits;
  std::vector<int> m_counted;  // [ring]: buffers its packets count
  std::vector<std::vector<const std::function<void(Cycle)>*>> m_waiting;  // [ring]
};

}  // namespace angara
