// Unit tests of the worm bubble (models/router/ring_budget.h): the rings a torus's routers feed,
// each counted by its length; a packet is counted by the buffers it fills packed, and enters a
// ring only while one of the ring's buffers stays uncounted; a packet leaving a ring wakes the
// routers waiting on it once, the cycle after; and a router asks for a whole empty buffer on
// every link under the bubble with wormhole, but for its endpoint as before.

#include "models/router/ring_budget.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <vector>

#include "models/core/packet_pool.h"
#include "models/router/router_core.h"
#include "models/topology/topology.h"

namespace angara {
namespace {

TEST(RingBudget, EveryLineDirectionAndVcIsARingOfItsLength) {
  const Torus torus({4, 3, 5});
  const RingBudget rings(torus, 2, 4);
  std::set<int> seen;
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    for (int d = 0; d < torus.direction_count(); ++d) {
      const Direction dir = Direction::from_index(d);
      for (VcId vc = 0; vc < 2; ++vc) {
        const int ring = rings.ring(n, static_cast<PortId>(d), vc);
        seen.insert(ring);
        // The next router along the direction feeds the same ring.
        EXPECT_EQ(rings.ring(torus.neighbor(n, dir), static_cast<PortId>(d), vc), ring);
        EXPECT_EQ(rings.counted(ring), 0);
      }
    }
  }
  // Lines: 3 x 5 along X, 4 x 5 along Y, 4 x 3 along Z; two directions and two VCs each.
  EXPECT_EQ(seen.size(), static_cast<std::size_t>((15 + 20 + 12) * 2 * 2));
}

TEST(RingBudget, APacketEntersOnlyWhileOneBufferOfTheRingStaysUncounted) {
  const Torus torus({4, 4});
  RingBudget rings(torus, 1, 6);
  EXPECT_EQ(rings.buffers(17), 3);
  EXPECT_EQ(rings.buffers(6), 1);
  EXPECT_EQ(rings.buffers(7), 2);
  const int ring = rings.ring(0, 0, 0);
  ASSERT_TRUE(rings.admits(ring, 17));  // 3 of 4 buffers
  rings.enter(ring, 17);
  EXPECT_FALSE(rings.admits(ring, 2));                 // a fourth would leave none empty
  EXPECT_TRUE(rings.admits(rings.ring(0, 1, 0), 17));  // the other direction is another ring
  EXPECT_TRUE(rings.admits(rings.ring(1, 2, 0), 17));  // and so is the line along Y
  rings.leave(ring, 17, 100);
  EXPECT_EQ(rings.counted(ring), 0);
  rings.enter(ring, 2);
  rings.enter(ring, 7);
  EXPECT_EQ(rings.counted(ring), 3);
  EXPECT_FALSE(rings.admits(ring, 1));
  // A largest packet never fits a ring of 4 in buffers of 4 flits: 5 buffers (the config refuses
  // that machine, naming router.buffer_flits).
  EXPECT_FALSE(RingBudget(torus, 1, 4).admits(ring, 17));
}

TEST(RingBudget, APacketLeavingWakesItsWaitersOnceForTheNextCycle) {
  const Torus torus({4, 4});
  RingBudget rings(torus, 1, 6);
  std::vector<Cycle> woken_a, woken_b;
  const std::function<void(Cycle)> a = [&](Cycle c) { woken_a.push_back(c); };
  const std::function<void(Cycle)> b = [&](Cycle c) { woken_b.push_back(c); };
  const int ring = rings.ring(0, 0, 0);
  rings.enter(ring, 17);
  rings.wait(ring, &a);
  rings.wait(ring, &a);  // once however often it asks
  rings.wait(ring, &b);
  rings.wait(rings.ring(0, 1, 0), &b);  // another ring: not woken by this one
  rings.leave(ring, 17, 41);
  EXPECT_EQ(woken_a, std::vector<Cycle>{42});
  EXPECT_EQ(woken_b, std::vector<Cycle>{42});
  rings.enter(ring, 17);
  rings.leave(ring, 17, 50);  // nobody waits any more
  EXPECT_EQ(woken_a.size(), 1u);
}

// Rule 1: under the bubble with wormhole a packet takes a link's VC only when its buffer is
// empty, whatever its length; to its endpoint it needs its own flits, as with cut-through.
TEST(RingBudget, ARouterAsksForAWholeEmptyBufferOnEveryLink) {
  const Topology topology{TopologyParams{.dims = {4, 4}}};
  FabricParams worm;
  worm.router.switching = Switching::Wormhole;
  worm.router.buffer_flits = 8;
  const RouterShared shared(topology, worm, 1);
  ASSERT_TRUE(shared.worm_bubble);
  PacketPool pool;
  RouterCore core(0, shared, nullptr, pool);
  int links = 0;
  for (NodeId dst = 0; dst < 16; ++dst) {
    for (int data : {1, 4, 16}) {
      Packet p;
      p.header.dst = dst;
      p.header.data_flits = static_cast<std::uint8_t>(data);
      const RouterCore::Route r = core.route(core.first_local(), p);
      const bool eject = r.outs == (1U << core.first_local());
      EXPECT_EQ(r.need, eject ? 1 + data : 8) << dst << " " << data;
      links += eject ? 0 : 1;
    }
  }
  EXPECT_EQ(links, 15 * 3);
  FabricParams dateline = worm;
  dateline.router.deadlock = DeadlockScheme::Dateline;
  EXPECT_FALSE(RouterShared(topology, dateline, 1).worm_bubble);
}

}  // namespace
}  // namespace angara
