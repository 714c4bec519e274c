// RouterCore without SystemC: the routing step and its credit need, the VC a packet keeps, and
// issue() sending a multi-destination packet's copies through one crossbar input.

#include "models/router/router_core.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <vector>

#include "regress/support/router_fabric.h"

namespace angara {
namespace {

using test::Fabric;
using test::kMX;
using test::kMY;
using test::kPX;
using test::kPY;
using test::port_of;

TEST(RouterCore, RoutesInDirectionOrderWithTheBubbleOnlyWhenEnteringARing) {
  Fabric f;
  RouterCore core = f.router(0);
  const NodeId across = f.step(f.step(0, kPX), kPY);  // needs +X, then +Y
  Packet* injected = f.packet(across, 16, 0, 0, 0);
  const RouterCore::Route r1 = core.route(core.first_local(), *injected);
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
  EXPECT_EQ(r4.outs, 1u << core.first_local());
  EXPECT_EQ(r4.need, 17);
}

TEST(RouterCore, APacketKeepsItsVcSet) {
  Fabric f;
  RouterCore core = f.router(0);
  for (VcId vc : {VcId{0}, VcId{1}}) {
    Packet* p = f.packet(f.step(0, kPY), 4, vc, 0, 0);
    const RouterCore::Route r = core.route(core.first_local(), *p);
    EXPECT_EQ(r.p2p_vc, vc);
    EXPECT_EQ(core.out_vc(port_of(kPY), *p, r), vc);
  }
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
  route.outs = (1u << port_of(kMX)) | (1u << port_of(kPY)) | (1u << core.first_local());
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
  const PortId outs[] = {port_of(kMX), port_of(kPY), core.first_local()};
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
