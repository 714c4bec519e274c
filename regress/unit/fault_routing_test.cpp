// Routing around failed links and nodes (routing/fault_routing.h) as RouterCore decides it, on
// faulty small tori: every pair of live nodes is routed to its destination without touching a
// failed link or node; detours move from the first leg's VCs to the second's, never back; the
// channel-dependency graph is acyclic with the dateline and cyclic only along single rings of
// one leg with the bubble; and a pair with no route is a config error naming it.

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "models/core/config_error.h"
#include "models/router/router_core.h"
#include "models/routing/fault_routing.h"
#include "regress/support/graph.h"

namespace angara {
namespace {

using test::Graph;
using test::has_cycle;

struct Case {
  std::string name;
  std::vector<int> dims;
  FaultParams faults;
};

// Makes GoogleTest print a failing case by name rather than as raw bytes.
void PrintTo(const Case& c, std::ostream* os) {  // NOLINT: GoogleTest's name
  *os << c.name;
}

FabricParams faulty(DeadlockScheme scheme, int vcs, const FaultParams& faults) {
  FabricParams params;
  params.router.deadlock = scheme;
  params.router.vcs = vcs;
  params.router.route_phases = 2;
  params.faults = faults;
  return params;
}

// What the routers decide for every pair of live nodes, walked hop by hop.
struct Walked {
  int pairs = 0, detoured = 0, arrived = 0;
  int failed_hops = 0;  // hops over a failed link, or into or out of a failed node
  int leg_back = 0;     // a hop from a second-leg VC onto a first-leg VC
  Graph dependencies;   // channel (node, port, vc) -> the channel it waits for next
  std::vector<std::pair<int, int>> edges;
};

Walked walk(const Case& c, DeadlockScheme scheme, int vcs) {
  const FabricParams params = faulty(scheme, vcs, c.faults);
  const Topology topology{TopologyParams{.dims = c.dims}};
  const Torus& torus = *topology.torus();
  const RouterShared shared(topology, params, 7);
  const FaultMap& faults = *shared.routing.faults();
  PacketPool pool;
  std::vector<RouterCore> routers;
  const auto nodes = static_cast<NodeId>(torus.node_count());
  routers.reserve(nodes);
  for (NodeId n = 0; n < nodes; ++n) routers.emplace_back(n, shared, nullptr, pool);
  const PortId local = routers[0].first_local();
  const int per_set = params.router.vc_layout().per_set();
  const int classes = params.router.vc_layout().classes;
  const auto channel = [&](NodeId node, PortId port, VcId vc) {
    return (static_cast<int>(node) * local + port) * vcs + vc;
  };
  Walked w;
  w.dependencies.resize(static_cast<std::size_t>(nodes) * local * vcs);
  for (NodeId src = 0; src < nodes; ++src) {
    for (NodeId dst = 0; dst < nodes; ++dst) {
      if (src == dst || faults.node_failed(src) || faults.node_failed(dst)) continue;
      ++w.pairs;
      Packet packet;
      packet.header.src = src;
      packet.header.dst = dst;
      packet.header.data_flits = 16;
      // The VCs an endpoint injects on: every set's first class, both legs'.
      packet.header.vc = static_cast<VcId>(classes * ((src + dst) % (vcs / classes)));
      NodeId here = src;
      PortId in = local;
      int from = -1;
      bool detour = false;
      for (int hop = 0; hop <= 4 * torus.node_count(); ++hop) {
        const RouterCore::Route route = routers[here].route(in, packet);
        const auto out = static_cast<PortId>(std::countr_zero(route.outs));
        if (out == local) {
          w.arrived += here == dst;
          break;
        }
        const Direction d = Direction::from_index(out);
        if (faults.hop_failed(here, d)) ++w.failed_hops;
        const int leg_now = in == local ? 0 : (packet.header.vc % per_set) / classes;
        const int leg_next = (route.p2p_vc % per_set) / classes;
        if (leg_next < leg_now) ++w.leg_back;
        detour |= leg_next == 1;
        const int to = channel(here, out, route.p2p_vc);
        if (from >= 0) {
          w.dependencies[from].push_back(to);
          w.edges.emplace_back(from, to);
        }
        from = to;
        packet.header.vc = route.p2p_vc;
        here = torus.neighbor(here, d);
        in = out;
      }
      w.detoured += detour;
    }
  }
  return w;
}

FaultParams links(std::vector<FailedLinkSpec> l, std::vector<std::vector<int>> n = {},
                  double random_links = 0) {
  FaultParams f;
  f.links = std::move(l);
  f.nodes = std::move(n);
  f.random_links = random_links;
  return f;
}

class FaultRouting : public testing::TestWithParam<Case> {};

TEST_P(FaultRouting, EveryPairArrivesAvoidingFailures) {
  for (auto [scheme, vcs] :
       {std::pair{DeadlockScheme::Bubble, 2}, std::pair{DeadlockScheme::Dateline, 4}}) {
    const Walked w = walk(GetParam(), scheme, vcs);
    EXPECT_GT(w.pairs, 0);
    EXPECT_EQ(w.arrived, w.pairs);
    EXPECT_GT(w.detoured, 0);  // the check can fail: some pair needs a detour
    EXPECT_EQ(w.failed_hops, 0);
    EXPECT_EQ(w.leg_back, 0);
  }
}

TEST_P(FaultRouting, DatelineDependenciesAreAcyclic) {
  const Walked w = walk(GetParam(), DeadlockScheme::Dateline, 4);
  EXPECT_FALSE(w.edges.empty());
  EXPECT_FALSE(has_cycle(w.dependencies));
}

// With the bubble the rings close cycles on each leg's VC (the bubble breaks them); between
// rings, and between legs, the graph of rings is acyclic.
TEST_P(FaultRouting, BubbleCyclesStayOnSingleRingsOfOneLeg) {
  const Case& c = GetParam();
  const Walked w = walk(c, DeadlockScheme::Bubble, 2);
  const Topology topology{TopologyParams{.dims = c.dims}};
  const Torus& torus = *topology.torus();
  const int ports = torus.direction_count(), vcs = 2;
  std::map<std::tuple<int, int, Coords>, int> rings;  // direction, VC, coordinates off it
  const auto ring_of = [&](int channel) {
    const int vc = channel % vcs;
    const int port = channel / vcs % ports;
    const auto node = static_cast<NodeId>(channel / vcs / ports);
    const Direction d = Direction::from_index(port);
    Coords at = torus.coords(node);
    at[d.dim] = 0;
    return rings.emplace(std::tuple{d.index(), vc, at}, static_cast<int>(rings.size()))
        .first->second;
  };
  Graph ring_graph;
  for (auto [from, to] : w.edges) {
    const int a = ring_of(from), b = ring_of(to);
    ring_graph.resize(rings.size());
    if (a != b) ring_graph[a].push_back(b);
  }
  EXPECT_FALSE(ring_graph.empty());
  EXPECT_FALSE(has_cycle(ring_graph));
}

INSTANTIATE_TEST_SUITE_P(
    Tori, FaultRouting,
    testing::Values(Case{"ring4x4_two_links", {4, 4}, links({{{0, 0}, "+X"}, {{2, 1}, "-Y"}})},
                    Case{"t5x3_node", {5, 3}, links({}, {{2, 1}})},
                    Case{"t3x3x3_links_node",
                         {3, 3, 3},
                         links({{{0, 0, 0}, "+Z"}, {{1, 2, 0}, "+X"}}, {{1, 1, 1}})},
                    Case{"t4x4x4_random", {4, 4, 4}, links({}, {{3, 0, 2}}, 0.05)}),
    [](const testing::TestParamInfo<Case>& c) { return c.param.name; });

// The intermediate FaultRouting picks against every node tried as one: both legs intact and no
// other intermediate with fewer hops. On the ring some pairs have no intermediate in their
// minimal box, so the search past the box is exercised too.
TEST(FaultRoutingChoice, DetoursTakeTheFewestHopsOfAnyIntermediate) {
  const std::vector<Case> cases{
      Case{"ring7_link", {7}, links({{{0}, "+X"}})},
      Case{"t8x8_random", {8, 8}, links({}, {}, 0.05)},
      Case{"t5x4x3_random_node", {5, 4, 3}, links({}, {{2, 1, 1}}, 0.08)},
  };
  for (const Case& c : cases) {
    const Torus torus(c.dims);
    const DirectionOrderRouting order(torus, RouterParams{});
    const FaultMap failed(torus, c.faults, 11);
    const angara::FaultRouting routing(torus, order, failed, 11);
    const auto intact = [&](NodeId a, NodeId b) {
      for (std::optional<Direction> by; a != b;) {
        const Direction d = Direction::from_index(order.route(a, b, by, 0).port);
        if (failed.hop_failed(a, d)) return false;
        a = torus.neighbor(a, d), by = d;
      }
      return true;
    };
    const auto nodes = static_cast<NodeId>(torus.node_count());
    int detours = 0, past_box = 0;
    for (NodeId s = 0; s < nodes; ++s) {
      for (NodeId d = 0; d < nodes; ++d) {
        if (failed.node_failed(s) || failed.node_failed(d)) continue;
        const NodeId via = routing.via(s, d);
        if (intact(s, d)) {
          EXPECT_EQ(via, d) << c.name;
          continue;
        }
        ++detours;
        EXPECT_TRUE(intact(s, via) && intact(via, d)) << c.name << " " << s << "->" << d;
        const int hops = torus.min_hops(s, via) + torus.min_hops(via, d);
        for (NodeId v = 0; v < nodes; ++v) {
          if (!failed.node_failed(v) && intact(s, v) && intact(v, d)) {
            EXPECT_LE(hops, torus.min_hops(s, v) + torus.min_hops(v, d)) << c.name;
          }
        }
        past_box += hops > torus.min_hops(s, d);
      }
    }
    EXPECT_GT(detours, 0) << c.name;
    if (c.name == "ring7_link") {
      EXPECT_GT(past_box, 0);  // some detour lies outside its box
    }
  }
}

TEST(FaultRoutingErrors, AnIsolatedNodeIsAConfigErrorNamingThePair) {
  const Topology topology{TopologyParams{.dims = {4, 4}}};
  // Every link of (1,1) failed: no path reaches it.
  const FabricParams params =
      faulty(DeadlockScheme::Bubble, 2,
             links({{{1, 1}, "+X"}, {{1, 1}, "-X"}, {{1, 1}, "+Y"}, {{1, 1}, "-Y"}}));
  try {
    const RouterShared shared(topology, params, 1);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("faults"), std::string::npos) << what;
    EXPECT_NE(what.find("no route from"), std::string::npos) << what;
    EXPECT_NE(what.find("(1,1)"), std::string::npos) << what;
    EXPECT_NE(what.find("(1,1)+X"), std::string::npos) << what;  // the failed links
  }
}

TEST(FaultMapDraws, RandomFailuresAreTheSeedsAndTheirShare) {
  const Torus torus({8, 8, 8});
  FaultParams f;
  f.random_links = 0.05;
  f.random_nodes = 0.01;
  const FaultMap a(torus, f, 3), b(torus, f, 3), c(torus, f, 4);
  EXPECT_EQ(a.failed_links().size(), 77U);  // 5% of 8*8*8*3 = 1536 links, rounded
  EXPECT_EQ(a.failed_nodes().size(), 5U);   // 1% of 512
  EXPECT_EQ(a.describe(torus), b.describe(torus));
  EXPECT_NE(a.describe(torus), c.describe(torus));
  int failed_hops = 0;
  for (NodeId n = 0; n < 512; ++n) {
    for (int d = 0; d < 6; ++d) failed_hops += a.hop_failed(n, Direction::from_index(d));
  }
  // Each failed link both ways, each failed node's six links both ways (some shared).
  EXPECT_LE(failed_hops, 2 * 77 + 5 * 12);
  EXPECT_GE(failed_hops, 2 * 77);
}

TEST(FaultMapDraws, ALinkNamedFromEitherEndIsOneLink) {
  const Torus torus({4, 4});
  const FaultMap m(torus, links({{{0, 0}, "+X"}, {{1, 0}, "-X"}}), 1);
  ASSERT_EQ(m.failed_links().size(), 1U);
  EXPECT_TRUE(m.hop_failed(0, Direction{0, false}));
  EXPECT_TRUE(m.hop_failed(1, Direction{0, true}));
  EXPECT_FALSE(m.hop_failed(0, Direction{0, true}));
}

}  // namespace
}  // namespace angara
