// AtSwitch over RouterCore without SystemC, driven as RouterAt drives it (receive, allocate,
// forward): a hop's zero-load timing and a path's against the documented formula, round-robin
// grants, and a head blocked for credits (in its VC only).

#include "models/router/at_switch.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "models/core/zero_load.h"
#include "regress/support/router_fabric.h"

namespace angara {
namespace {

using test::Fabric;
using test::kMX;
using test::kMY;
using test::kPX;
using test::kPY;
using test::port_of;
using test::SwitchedRouter;

// Runs allocation from cycle `from` at every cycle the core asks for, until it asks for none;
// returns the grants in order.
std::vector<Grant> run(AtSwitch& at, Cycle from) {
  std::vector<Grant> all, grants;
  for (Cycle now = from; now != kNever; now = at.next_wakeup(now)) {
    grants.clear();
    at.allocate(now, grants);
    all.insert(all.end(), grants.begin(), grants.end());
  }
  return all;
}

// Head wholly in at t: it may start at t + P; its head is in the next buffer L + S(1) later and
// its tail S(F) after the start, which is the per-hop term of zero_load.h.
TEST(AtSwitch, AHopTakesPipelineThenLinkLatencyAndSerialization) {
  Fabric f;
  SwitchedRouter router(f.router(0));
  RouterCore& core = router.core;
  Packet* p = f.packet(f.step(0, kPX), 16, 0, 1, 15);        // as the endpoint sends it at cycle 0
  EXPECT_EQ(router.at.receive(core.first_local(), *p), 4u);  // 1 + P
  std::vector<Grant> grants;
  router.at.allocate(3, grants);
  EXPECT_TRUE(grants.empty());
  router.at.allocate(4, grants);
  ASSERT_EQ(grants.size(), 1u);
  const Grant g = grants[0];
  EXPECT_EQ(g.packet, p);
  EXPECT_EQ(g.out_port, port_of(kPX));
  EXPECT_TRUE(g.frees_input);
  EXPECT_EQ(g.start, 4u);
  EXPECT_EQ(g.tail_out, 4u + 15);
  core.forward(*p, g);
  EXPECT_EQ(p->head_at, 4u + 40 + 1);
  EXPECT_EQ(p->tail_at, 4u + 40 + 15);
  EXPECT_EQ(p->hops, 1);
  const ZeroLoad zero(f.params);
  EXPECT_EQ(p->head_at - 1, zero.transit(1) - zero.transit(0));
  EXPECT_EQ(core.flit_hops(), 17u);
}

// Cut-through, but a tail may not leave before it has arrived.
TEST(AtSwitch, ASlowlyArrivingTailHoldsTheStartBack) {
  Fabric f;
  SwitchedRouter router(f.router(0));
  Packet* p = f.packet(f.step(0, kPX), 16, 0, 10, 100);
  EXPECT_EQ(router.at.receive(router.core.first_local(), *p), 100u - 15);
}

// From creation at the source endpoint to the tail in the destination endpoint, over routers
// driven one after another, the time zero_load.h documents.
TEST(AtSwitch, AnUnloadedPathTakesTheZeroLoadLatency) {
  Fabric f;
  const NodeId dst = f.step(f.step(f.step(0, kPX), kPX), kMY);  // 3 hops
  std::map<NodeId, SwitchedRouter> routers;
  const ChannelTiming& local = f.shared->local;
  Packet* p = f.packet(dst, 16, 0, local.latency + local.serialization(1),
                       local.latency + local.serialization(17));  // sent at cycle 0
  NodeId here = 0;
  PortId in = 0;
  for (bool injected = false;; injected = true) {
    SwitchedRouter& router = routers.try_emplace(here, f.router(here)).first->second;
    RouterCore& core = router.core;
    if (!injected) in = core.first_local();
    const Cycle wake = router.at.receive(in, *p);
    const std::vector<Grant> grants = run(router.at, wake);
    ASSERT_EQ(grants.size(), 1u);
    core.forward(*p, grants[0]);
    if (grants[0].out_port == core.first_local()) break;
    here = f.step(here, Direction::from_index(grants[0].out_port));
    in = grants[0].out_port;
  }
  EXPECT_EQ(here, dst);
  EXPECT_EQ(p->hops, 3);
  EXPECT_EQ(p->tail_at, zero_load_latency(f.params, 3, 17));
  EXPECT_EQ(p->tail_at, 19u + 44 * 3);  // Table 1: T0 = 19 + 44 H
}

// Four packets for the local endpoint from three inputs, all ready together: the output serves
// the input after the one it served last, so the second packet of -X goes after +Y and -Y.
TEST(AtSwitch, AnOutputGrantsItsRequestersRoundRobin) {
  Fabric f;
  SwitchedRouter router(f.router(0));
  for (Direction d : {kMX, kMX, kPY, kMY}) {
    router.at.receive(port_of(d), *f.packet(0, 4, 0, 10, 14));
  }
  const std::vector<Grant> grants = run(router.at, 13);
  ASSERT_EQ(grants.size(), 4u);
  const Cycle s5 = f.shared->local.serialization(5);
  const Direction expect[] = {kMX, kPY, kMY, kMX};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(grants[i].in_port, port_of(expect[i])) << "grant " << i;
    EXPECT_EQ(grants[i].out_port, router.core.first_local());
    EXPECT_EQ(grants[i].start, 13 + i * s5) << "grant " << i;  // back to back on the output
  }
}

// 17-flit packets entering the X ring need 34 free flits: two fit the 64-flit buffer, the third
// waits until credits come back, and the packet behind it in its VC waits too although its own
// output is free. Another VC's packet passes meanwhile.
TEST(AtSwitch, ABlockedHeadWaitsForCreditsAndHoldsOnlyItsVc) {
  Fabric f;
  SwitchedRouter router(f.router(0));
  const PortId local = router.core.first_local();
  const NodeId east = f.step(0, kPX);
  Packet* a = f.packet(east, 16, 0, 1, 15);
  Packet* b = f.packet(east, 16, 0, 1, 15);
  Packet* c = f.packet(east, 16, 0, 1, 15);
  Packet* e = f.packet(f.step(0, kMX), 16, 0, 1, 15);
  Packet* d = f.packet(east, 16, 1, 100, 114);
  for (Packet* p : {a, b, c, e, d}) router.at.receive(local, *p);

  const std::vector<Grant> first = run(router.at, 4);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].packet, a);
  EXPECT_EQ(first[1].packet, b);
  EXPECT_EQ(first[1].start, 19u);  // a's tail has left the crossbar input
  EXPECT_EQ(first[2].packet, d);
  EXPECT_EQ(first[2].out_vc, 1);
  EXPECT_EQ(first[2].start, 103u);  // c (30 free flits) and e behind it wait

  EXPECT_TRUE(router.at.return_credits(port_of(kPX), 0, 17, 200));  // the router waits for them
  const std::vector<Grant> second = run(router.at, 200);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].packet, c);
  EXPECT_EQ(second[0].start, 200u);
  EXPECT_EQ(second[1].packet, e);
  EXPECT_EQ(second[1].out_port, port_of(kMX));
  EXPECT_EQ(second[1].start, 215u);
}

}  // namespace
}  // namespace angara
