// The wormhole flit arithmetic (models/router/worm.h) against a path worked out by hand; a worm's
// tail known only once the hop after it is granted, and its owner told then; whole-packet windows
// giving cut-through's timing. And RouterCore with wormhole: the same output and VC as cut-through
// in every state a packet reaches on small tori (so the dateline's channel-dependency graph,
// acyclic in routing_test, is wormhole's too), asking for the whole buffer only for a packet
// longer than it.

#include "models/router/worm.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "models/router/router_core.h"

namespace angara {
namespace {

// A channel of one flit per cycle (64 Gbit/s at 500 MHz) and `latency` cycles.
ChannelTiming channel(Cycle latency) {
  return ChannelTiming({64.0, static_cast<double>(latency) * 2.0}, 500.0);
}

struct Told final : WormOwner {
  std::vector<std::pair<PortId, Cycle>> tails;
  void worm_tail_left(PortId in_port, VcId /*in_vc*/, int /*flits*/, Cycle tail) override {
    tails.push_back({in_port, tail});
  }
};

// 4 flits, a 2-flit buffer in the next router, links of 10 cycles, pipeline 3. Worked by hand:
// hop 0 (granted at 3): flits out at 4, 5, then on credits: flit 2 when flit 0 has left the
// next router (18) + 10 + 1 = 29, flit 3 at 30. Hop 1 (the head in at 14, granted at 17, no
// window): 18, 19, then as flits come in: 39, 40.
TEST(Worm, FlitsFollowCreditsAsWorkedByHand) {
  const ChannelTiming link = channel(10), eject = channel(0), in = channel(0);
  ASSERT_EQ(link.latency, 10U);
  ASSERT_EQ(link.serialization(4), 4U);
  Told owner;
  Worm w;
  w.begin(4, 0, 3, in);
  const int h0 = w.add_hop({3, &link, 2, 7, 0, &owner, 0, false, {}});
  EXPECT_EQ(w.tail(h0), kNever);  // its last two flits wait for the next router
  EXPECT_TRUE(owner.tails.empty());
  const int h1 = w.add_hop({17, &eject, 0, 1, 0, &owner, 0, false, {}});
  EXPECT_EQ(w.tail(h1), 40U);
  ASSERT_EQ(owner.tails.size(), 1U);  // hop 0 told when hop 1 made its tail known
  EXPECT_EQ(owner.tails[0], (std::pair<PortId, Cycle>{7, 30}));
  EXPECT_TRUE(w.finished());
}

// A window as large as the packet: nothing waits for credits, and each hop's tail leaves with
// cut-through's start + serialization, known at once.
TEST(Worm, AWholePacketWindowIsCutThrough) {
  const ChannelTiming link = channel(40), in = channel(0);
  Worm w;
  w.begin(17, 0, 16, in);
  const int h0 = w.add_hop({3, &link, 17, 0, 0, nullptr, 0, false, {}});
  EXPECT_EQ(w.tail(h0), 3U + 17U);
  const int h1 = w.add_hop({3 + 40 + 1 + 3, &link, 17, 0, 0, nullptr, 0, false, {}});
  EXPECT_EQ(w.tail(h1), 47U + 17U);
}

// A worm spans the routers its flits are in: with 2-flit windows a 17-flit packet's first hop
// learns its tail only once the head is several routers on.
TEST(Worm, ATailWaitsForTheHopsItsFlitsNeed) {
  const ChannelTiming link = channel(1), in = channel(0);
  Worm w;
  w.begin(17, 0, 16, in);
  std::vector<int> hops;
  Cycle start = 3;
  for (int i = 0; i < 4; ++i) {
    hops.push_back(w.add_hop({start, &link, 2, 0, 0, nullptr, 0, false, {}}));
    start += 1 + 1 + 3;
  }
  for (int h : hops) EXPECT_EQ(w.tail(h), kNever) << h;
  EXPECT_FALSE(w.finished());
}

// The least hold LT with buffers books for a worm: longer than cut-through's (across the link,
// through the next router and out, credits back) by the credit round trips its flits wait for,
// and shrinking as the window grows.
TEST(Worm, LeastHoldCoversTheCreditRoundTrips) {
  const ChannelTiming link = channel(40);
  const Cycle cut_through = 2 * 40 + 1 + 3 + 17;
  EXPECT_GT(Worm::least_hold(17, 4, link, 3), cut_through + 2 * (2 * 40));
  EXPECT_GT(Worm::least_hold(17, 4, link, 3), Worm::least_hold(17, 8, link, 3));
  EXPECT_GT(Worm::least_hold(17, 8, link, 3), Worm::least_hold(17, 16, link, 3));
  EXPECT_GE(Worm::least_hold(17, 16, link, 3), cut_through);
}

// Every state a point-to-point packet reaches with the dateline: wormhole routes it to the same
// output and VC as cut-through, and asks for min(packet, buffer) free flits on a link.
TEST(WormRouting, SameRoutesAsCutThroughAndAWholeBufferOnlyForLongerPackets) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 4}, std::vector<int>{3, 3, 3}}) {
    const Topology topology{TopologyParams{.dims = dims}};
    FabricParams vct;
    vct.router.deadlock = DeadlockScheme::Dateline;
    FabricParams worm = vct;
    worm.router.switching = Switching::Wormhole;
    worm.router.buffer_flits = 4;
    const RouterShared vct_shared(topology, vct, 1), worm_shared(topology, worm, 1);
    PacketPool pool;
    const int nodes = topology.node_count();
    int links = 0;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      RouterCore a(n, vct_shared, nullptr, pool), b(n, worm_shared, nullptr, pool);
      for (NodeId dst = 0; dst < static_cast<NodeId>(nodes); ++dst) {
        for (PortId in = 0; in <= a.first_local(); ++in) {
          for (VcId vc = 0; vc < 2; ++vc) {
            for (int data : {1, 16}) {
              Packet p;
              p.header.dst = dst;
              p.header.vc = vc;
              p.header.data_flits = static_cast<std::uint8_t>(data);
              Packet q = p;
              const RouterCore::Route ra = a.route(in, p), rb = b.route(in, q);
              ASSERT_EQ(ra.outs, rb.outs);
              ASSERT_EQ(ra.p2p_vc, rb.p2p_vc);
              const bool eject = ra.outs == (1U << a.first_local());
              const int flits = 1 + data;
              ASSERT_EQ(rb.need, eject ? ra.need : std::min(flits, 4));
              links += eject ? 0 : 1;
            }
          }
        }
      }
    }
    EXPECT_GT(links, 0);
  }
}

}  // namespace
}  // namespace angara
