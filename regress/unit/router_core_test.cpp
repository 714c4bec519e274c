// RouterCore without SystemC, driven as RouterAt drives it (receive, allocate, forward): the
// routing step and its credit need, the VC a packet keeps, a hop's zero-load timing and a path's
// against the documented formula, round-robin grants, a head blocked for credits (in its VC
// only), and issue() sending a multi-destination packet's copies through one crossbar input.

#include "models/router/router_core.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <vector>

#include "models/core/zero_load.h"

namespace angara {
namespace {

constexpr Direction kPX{0, false}, kMX{0, true}, kPY{1, false}, kMY{1, true};

PortId port_of(Direction d) {
  return static_cast<PortId>(d.index());
}

// A 4x4 torus with the default (Table 1) parameters: P = 3, link L = 40 and S(1) = 1, S(17) = 15,
// local channel L = 0 and the same serialization, 64-flit buffers, 2 VCs, bubble rule.
struct Fabric {
  FabricParams params;
  Topology topology{TopologyParams{.dims = {4, 4}}};
  const Torus& torus = *topology.torus();
  std::unique_ptr<RouterShared> shared;
  PacketPool pool;

  Fabric() { shared = std::make_unique<RouterShared>(topology, params, 1); }
  RouterCore router(NodeId id) { return RouterCore(id, *shared, nullptr, pool); }
  NodeId step(NodeId from, Direction d) const { return torus.neighbor(from, d); }

  // A point-to-point packet of `data_flits` data flits, wholly in a buffer from head_at/tail_at.
  Packet* packet(NodeId dst, int data_flits, VcId vc, Cycle head_at, Cycle tail_at) {
    Packet* p = pool.acquire();
    p->header.dst = dst;
    p->header.data_flits = static_cast<std::uint8_t>(data_flits);
    p->header.vc = vc;
    p->head_at = head_at;
    p->tail_at = tail_at;
    return p;
  }
};

// Runs allocation from cycle `from` at every cycle the core asks for, until it asks for none;
// returns the grants in order.
std::vector<Grant> run(RouterCore& core, Cycle from) {
  std::vector<Grant> all, grants;
  for (Cycle now = from; now != kNever; now = core.next_wakeup(now)) {
    grants.clear();
    core.allocate(now, grants);
    all.insert(all.end(), grants.begin(), grants.end());
  }
  return all;
}

TEST(RouterCore, RoutesInDirectionOrderWithTheBubbleOnlyWhenEnteringARing) {
  Fabric f;
  RouterCore core = f.router(0);
  const NodeId across = f.step(f.step(0, kPX), kPY);  // needs +X, then +Y
  Packet* injected = f.packet(across, 16, 0, 0, 0);
  const RouterCore::Route r1 = core.route(core.local_port(), *injected);
  EXPECT_EQ(r1.outs, 1u << port_of(kPX));    // X before Y
  EXPECT_EQ(r1.need, 17 + kMaxPacketFlits);  // enters the X ring: room for one more packet

  Packet* going_on = f.packet(f.step(0, kPX), 16, 0, 0, 0);
  const RouterCore::Route r2 = core.route(port_of(kPX), *going_on);  // travelling +X already
  EXPECT_EQ(r2.outs, 1u << port_of(kPX));
  EXPECT_EQ(r2.need, 17);  // stays on its ring: room for itself

  Packet* turning = f.packet(f.step(0, kMY), 16, 0, 0, 0);
  const RouterCore::Route r3 = core.route(port_of(kPX), *turning);
  EXPECT_EQ(r3.outs, 1u << port_of(kMY));
  EXPECT_EQ(r3.need, 17 + kMaxPacketFlits);  // enters the Y ring

  Packet* home = f.packet(0, 16, 0, 0, 0);
  const RouterCore::Route r4 = core.route(port_of(kMX), *home);
  EXPECT_EQ(r4.outs, 1u << core.local_port());
  EXPECT_EQ(r4.need, 17);
}

TEST(RouterCore, APacketKeepsItsVcSet) {
  Fabric f;
  RouterCore core = f.router(0);
  for (VcId vc : {VcId{0}, VcId{1}}) {
    Packet* p = f.packet(f.step(0, kPY), 4, vc, 0, 0);
    const RouterCore::Route r = core.route(core.local_port(), *p);
    EXPECT_EQ(r.p2p_vc, vc);
    EXPECT_EQ(core.out_vc(port_of(kPY), *p, r), vc);
  }
}

// Head wholly in at t: it may start at t + P; its head is in the next buffer L + S(1) later and
// its tail S(F) after the start, which is the per-hop term of zero_load.h.
TEST(RouterCore, AHopTakesPipelineThenLinkLatencyAndSerialization) {
  Fabric f;
  RouterCore core = f.router(0);
  Packet* p = f.packet(f.step(0, kPX), 16, 0, 1, 15);  // as the endpoint sends it at cycle 0
  EXPECT_EQ(core.receive(core.local_port(), *p), 4u);  // 1 + P
  std::vector<Grant> grants;
  core.allocate(3, grants);
  EXPECT_TRUE(grants.empty());
  core.allocate(4, grants);
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
TEST(RouterCore, ASlowlyArrivingTailHoldsTheStartBack) {
  Fabric f;
  RouterCore core = f.router(0);
  Packet* p = f.packet(f.step(0, kPX), 16, 0, 10, 100);
  EXPECT_EQ(core.receive(core.local_port(), *p), 100u - 15);
}

// From creation at the source endpoint to the tail in the destination endpoint, over routers
// driven one after another, the time zero_load.h documents.
TEST(RouterCore, AnUnloadedPathTakesTheZeroLoadLatency) {
  Fabric f;
  const NodeId dst = f.step(f.step(f.step(0, kPX), kPX), kMY);  // 3 hops
  std::map<NodeId, RouterCore> routers;
  const ChannelTiming& local = f.shared->local;
  Packet* p = f.packet(dst, 16, 0, local.latency + local.serialization(1),
                       local.latency + local.serialization(17));  // sent at cycle 0
  NodeId here = 0;
  PortId in = 0;
  for (bool injected = false;; injected = true) {
    RouterCore& core = routers.try_emplace(here, f.router(here)).first->second;
    if (!injected) in = core.local_port();
    const Cycle wake = core.receive(in, *p);
    const std::vector<Grant> grants = run(core, wake);
    ASSERT_EQ(grants.size(), 1u);
    core.forward(*p, grants[0]);
    if (grants[0].out_port == core.local_port()) break;
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
TEST(RouterCore, AnOutputGrantsItsRequestersRoundRobin) {
  Fabric f;
  RouterCore core = f.router(0);
  for (Direction d : {kMX, kMX, kPY, kMY}) core.receive(port_of(d), *f.packet(0, 4, 0, 10, 14));
  const std::vector<Grant> grants = run(core, 13);
  ASSERT_EQ(grants.size(), 4u);
  const Cycle s5 = f.shared->local.serialization(5);
  const Direction expect[] = {kMX, kPY, kMY, kMX};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(grants[i].in_port, port_of(expect[i])) << "grant " << i;
    EXPECT_EQ(grants[i].out_port, core.local_port());
    EXPECT_EQ(grants[i].start, 13 + i * s5) << "grant " << i;  // back to back on the output
  }
}

// 17-flit packets entering the X ring need 34 free flits: two fit the 64-flit buffer, the third
// waits until credits come back, and the packet behind it in its VC waits too although its own
// output is free. Another VC's packet passes meanwhile.
TEST(RouterCore, ABlockedHeadWaitsForCreditsAndHoldsOnlyItsVc) {
  Fabric f;
  RouterCore core = f.router(0);
  const PortId local = core.local_port();
  const NodeId east = f.step(0, kPX);
  Packet* a = f.packet(east, 16, 0, 1, 15);
  Packet* b = f.packet(east, 16, 0, 1, 15);
  Packet* c = f.packet(east, 16, 0, 1, 15);
  Packet* e = f.packet(f.step(0, kMX), 16, 0, 1, 15);
  Packet* d = f.packet(east, 16, 1, 100, 114);
  for (Packet* p : {a, b, c, e, d}) core.receive(local, *p);

  const std::vector<Grant> first = run(core, 4);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].packet, a);
  EXPECT_EQ(first[1].packet, b);
  EXPECT_EQ(first[1].start, 19u);  // a's tail has left the crossbar input
  EXPECT_EQ(first[2].packet, d);
  EXPECT_EQ(first[2].out_vc, 1);
  EXPECT_EQ(first[2].start, 103u);  // c (30 free flits) and e behind it wait

  EXPECT_TRUE(core.return_credits(port_of(kPX), 0, 17, 200));  // the router waits for them
  const std::vector<Grant> second = run(core, 200);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].packet, c);
  EXPECT_EQ(second[0].start, 200u);
  EXPECT_EQ(second[1].packet, e);
  EXPECT_EQ(second[1].out_port, port_of(kMX));
  EXPECT_EQ(second[1].start, 215u);
}

// A shell that books each output from the earliest cycle offered, or when it frees, and keeps
// what it is handed.
struct RecordingShell {
  std::map<PortId, Cycle> busy_until;
  std::vector<Grant> handed;
  std::vector<OutputRequest> asked;

  Cycle book(OutputRequest& r) {
    asked.push_back(r);
    const Cycle start = std::max(r.earliest, busy_until[r.out]);
    busy_until[r.out] = start + r.length;
    return start;
  }
  void hand_on(const Grant& grant) { handed.push_back(grant); }
};

// A broadcast going down to -X, +Y and the processor: one copy at a time through its crossbar
// input, in port order, each on its output's VC; the packet itself goes last and frees the input.
TEST(RouterCore, IssueSendsCopiesOneAfterAnotherThroughTheCrossbarInput) {
  Fabric f;
  RouterCore core = f.router(0);
  Packet* p = f.packet(0, 16, core.vc_down(), 0, 0);
  p->header.kind = PacketKind::Broadcast;
  p->header.set_sequence(77);
  RouterCore::Route route;
  route.outs = (1u << port_of(kMX)) | (1u << port_of(kPY)) | (1u << core.local_port());
  route.need = 17;
  RecordingShell shell;
  shell.busy_until[port_of(kPY)] = 80;  // +Y is taken until cycle 80
  Cycle input_free = 50;
  while (route.outs != 0) {
    const auto out = static_cast<PortId>(std::countr_zero(route.outs));
    core.issue(shell, port_of(kPX), core.vc_down(), *p, route, out, input_free);
  }
  const std::vector<Grant>& g = shell.handed;
  ASSERT_EQ(g.size(), 3u);
  const PortId outs[] = {port_of(kMX), port_of(kPY), core.local_port()};
  const Cycle starts[] = {50, 80, 95};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(g[i].out_port, outs[i]) << "copy " << i;
    EXPECT_EQ(g[i].start, starts[i]) << "copy " << i;
    EXPECT_EQ(g[i].tail_out, starts[i] + 15) << "copy " << i;
    EXPECT_EQ(g[i].in_port, port_of(kPX));
    EXPECT_EQ(g[i].frees_input, i == 2) << "copy " << i;
    EXPECT_EQ(g[i].packet->header.sequence(), 77u);
    // What the shell was asked: the copy's VC and flits, and room for one more largest packet
    // where it enters a ring (the bubble), none more toward the processor.
    EXPECT_EQ(shell.asked[i].vc, g[i].out_vc) << "copy " << i;
    EXPECT_EQ(shell.asked[i].flits, 17) << "copy " << i;
    EXPECT_EQ(shell.asked[i].need, i == 2 ? 17 : 34) << "copy " << i;
  }
  EXPECT_NE(g[0].packet, p);
  EXPECT_NE(g[1].packet, p);
  EXPECT_NE(g[0].packet, g[1].packet);
  EXPECT_EQ(g[2].packet, p);
  EXPECT_EQ(g[0].out_vc, core.vc_down());
  EXPECT_EQ(g[1].out_vc, core.vc_down());
  EXPECT_EQ(g[2].out_vc, core.vc_up());  // the processor's collective buffer
  EXPECT_EQ(input_free, 110u);
}

}  // namespace
}  // namespace angara
