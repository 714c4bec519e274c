// Adaptive routing (routing/adaptive_routing.h) as RouterCore decides it: from every state a
// packet can reach on small tori, every option is a minimal step; escape packets may return to
// the adaptive VCs; and the escape channels' dependency graph is acyclic with the dateline and
// cyclic only along single rings with the bubble.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "models/router/router_core.h"
#include "regress/support/graph.h"

namespace angara {
namespace {

using test::Graph;
using test::has_cycle;

// A packet's state at a router: the input port it came in by (the local port: from the
// processor) and its VC there.
struct State {
  NodeId node;
  PortId in;
  VcId vc;
  auto operator<=>(const State&) const = default;
};

// Every router of a torus with adaptive routing, and what they decide for every reachable state.
struct Explored {
  int channels = 0;  // escape channels: (node, link port, escape VC)
  Graph escape;      // escape channel -> the escape channel a packet on it may wait for next
  std::vector<std::pair<int, int>> edges;
  int non_minimal = 0, returns = 0, states = 0;
};

Explored explore(const std::vector<int>& dims, DeadlockScheme scheme, int vcs) {
  FabricParams params;
  params.router.routing = RoutingAlgorithm::Adaptive;
  params.router.deadlock = scheme;
  params.router.vcs = vcs;
  const Topology topology{TopologyParams{.dims = dims}};
  const Torus& torus = *topology.torus();
  const RouterShared shared(topology, params, 1);
  PacketPool pool;
  std::vector<RouterCore> routers;
  routers.reserve(static_cast<std::size_t>(torus.node_count()));
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    routers.emplace_back(n, shared, nullptr, pool);
  }
  const auto local = routers[0].first_local();
  const int escape_vcs = params.router.vc_layout().first_adaptive;
  const auto channel = [&](NodeId node, PortId port, VcId vc) {
    return (static_cast<int>(node) * local + port) * escape_vcs + vc;
  };
  Explored e;
  e.channels = torus.node_count() * local * escape_vcs;
  e.escape.resize(static_cast<std::size_t>(e.channels));
  for (NodeId dst = 0; dst < static_cast<NodeId>(torus.node_count()); ++dst) {
    std::set<State> seen;
    std::vector<State> todo;
    for (NodeId src = 0; src < static_cast<NodeId>(torus.node_count()); ++src) {
      todo.push_back({src, local, 0});
    }
    while (!todo.empty()) {
      const State s = todo.back();
      todo.pop_back();
      if (!seen.insert(s).second) continue;
      ++e.states;
      Packet packet;
      packet.header.dst = dst;
      packet.header.data_flits = 16;
      packet.header.vc = s.vc;
      RouterCore& core = routers[s.node];
      const RouterCore::Route route = core.route(s.in, packet);
      const bool on_escape = s.in != local && s.vc < escape_vcs;
      core.for_each_option(s.in, packet, route, [&](const RouterCore::Option& o) {
        if (o.out == local) return;  // delivered
        const Direction d = Direction::from_index(o.out);
        const NodeId next = torus.neighbor(s.node, d);
        if (torus.min_hops(next, dst) != torus.min_hops(s.node, dst) - 1) ++e.non_minimal;
        if (on_escape && o.vc >= escape_vcs) ++e.returns;
        if (on_escape && o.vc < escape_vcs) {
          const NodeId prev = torus.neighbor(s.node, Direction::from_index(s.in).opposite());
          const int from = channel(prev, s.in, s.vc), to = channel(s.node, o.out, o.vc);
          e.escape[from].push_back(to);
          e.edges.emplace_back(from, to);
        }
        todo.push_back({next, o.out, o.vc});
      });
    }
  }
  return e;
}

struct Shape {
  std::vector<int> dims;
};

std::string shape_name(const Shape& shape) {
  std::string name;
  for (int k : shape.dims) name += (name.empty() ? "" : "x") + std::to_string(k);
  return name;
}

// Makes GoogleTest print a failing case by name rather than as raw bytes.
void PrintTo(const Shape& shape, std::ostream* os) {  // NOLINT: GoogleTest's name
  *os << shape_name(shape);
}

class AdaptiveRouting : public testing::TestWithParam<Shape> {};

TEST_P(AdaptiveRouting, EveryOptionIsMinimalAndEscapePacketsMayReturn) {
  const Explored e = explore(GetParam().dims, DeadlockScheme::Bubble, 2);
  EXPECT_GT(e.states, 0);
  EXPECT_EQ(e.non_minimal, 0);
  EXPECT_GT(e.returns, 0);
}

TEST_P(AdaptiveRouting, DatelineEscapeDependenciesAreAcyclic) {
  const Explored e = explore(GetParam().dims, DeadlockScheme::Dateline, 3);
  EXPECT_EQ(e.non_minimal, 0);
  EXPECT_FALSE(e.edges.empty());
  EXPECT_FALSE(has_cycle(e.escape));
}

// With one escape class the rings close cycles (the bubble breaks them); between rings the
// dependencies keep to the direction order, so the graph of rings is acyclic.
TEST_P(AdaptiveRouting, BubbleEscapeCyclesStayOnSingleRings) {
  const std::vector<int>& dims = GetParam().dims;
  const Explored e = explore(dims, DeadlockScheme::Bubble, 2);
  const Topology topology{TopologyParams{.dims = dims}};
  const Torus& torus = *topology.torus();
  const int ports = torus.direction_count();
  // A channel's ring: its direction and its coordinates off that direction's dimension.
  std::map<std::pair<int, Coords>, int> rings;
  const auto ring_of = [&](int channel) {
    const auto node = static_cast<NodeId>(channel / ports);
    const Direction d = Direction::from_index(channel % ports);
    Coords c = torus.coords(node);
    c[d.dim] = 0;
    return rings.emplace(std::pair{d.index(), c}, static_cast<int>(rings.size())).first->second;
  };
  Graph ring_graph;
  for (auto [from, to] : e.edges) {
    const int a = ring_of(from), b = ring_of(to);
    ring_graph.resize(rings.size());
    if (a != b) ring_graph[a].push_back(b);
  }
  EXPECT_FALSE(has_cycle(ring_graph));
  if (dims[0] > 3) {
    EXPECT_TRUE(has_cycle(e.escape));  // the check can fail: a ring's own cycle
  }
}

INSTANTIATE_TEST_SUITE_P(Tori, AdaptiveRouting,
                         testing::Values(Shape{{4, 4}}, Shape{{5, 3}}, Shape{{3, 3, 3}},
                                         Shape{{4, 4, 4}}, Shape{{2, 2, 2, 2}}),
                         [](const testing::TestParamInfo<Shape>& shape) {
                           return shape_name(shape.param);
                         });

}  // namespace
}  // namespace angara
