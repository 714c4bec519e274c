// Unit tests of the circulant graph (topology.kind = "cayley") and its routing: every link is
// the same seen from both ends and each generator's cycles have one wrap link each way; the
// distances are those of a breadth-first search from every node; every route ends at its
// destination in the fewest hops, one run of one sign per generator in generator order; under
// the dateline the channel-dependency graph is acyclic (and with one class it is not, so the
// check can fail); the config refuses steps that would not make a connected simple graph.

#include "models/topology/circulant.h"

#include <gtest/gtest.h>

#include <numeric>
#include <ostream>
#include <vector>

#include "models/core/params.h"
#include "models/routing/circulant_routing.h"
#include "models/topology/topology.h"
#include "regress/support/cayley_walk.h"
#include "regress/support/config_refusal.h"
#include "regress/support/graph.h"

namespace angara {
namespace {

struct Shape {
  int nodes;
  std::vector<int> steps;
};

std::ostream& operator<<(std::ostream& os, const Shape& s) {
  os << "C_" << s.nodes << "(";
  for (std::size_t i = 0; i < s.steps.size(); ++i) os << (i ? "," : "") << s.steps[i];
  return os << ")";
}

RouterParams params(DeadlockScheme scheme) {
  RouterParams p;
  p.deadlock = scheme;
  return p;
}

// Hops from `src` to every node by breadth-first search of the links i -> i +- s.
std::vector<int> distances(const Shape& shape, int src) {
  return test::bfs_distances(shape.nodes, src, [&](int at, auto visit) {
    for (const int s : shape.steps) {
      visit((at + s) % shape.nodes);
      visit((at - s + shape.nodes) % shape.nodes);
    }
  });
}

class CirculantShapes : public testing::TestWithParam<Shape> {};

TEST_P(CirculantShapes, LinksMatchFromBothEndsAndEachCycleWrapsOnceEachWay) {
  const Circulant graph(GetParam().nodes, GetParam().steps);
  const int n = graph.node_count();
  for (int j = 0; j < graph.generators(); ++j) {
    const int per_cycle = n / std::gcd(n, graph.step(j));
    int plus_wraps = 0, minus_wraps = 0;
    for (NodeId i = 0; i < static_cast<NodeId>(n); ++i) {
      const auto plus = static_cast<PortId>(2 * j), minus = static_cast<PortId>(2 * j + 1);
      ASSERT_EQ(graph.neighbor(i, plus), (i + graph.step(j)) % n);
      ASSERT_EQ(graph.neighbor(graph.neighbor(i, plus), minus), i);
      // The + wrap from a cycle's last node leads to its first; the - wrap back.
      if (graph.is_wrap_hop(i, plus)) {
        ++plus_wraps;
        ASSERT_TRUE(graph.is_wrap_hop(graph.neighbor(i, plus), minus)) << i;
      }
      minus_wraps += graph.is_wrap_hop(i, minus);
    }
    EXPECT_EQ(plus_wraps, n / per_cycle) << "generator " << graph.step(j);
    EXPECT_EQ(minus_wraps, n / per_cycle) << "generator " << graph.step(j);
  }
}

TEST_P(CirculantShapes, EveryRouteIsMinimalAndTakesTheGeneratorsInOrder) {
  const Circulant graph(GetParam().nodes, GetParam().steps);
  const Topology topology([&] {
    TopologyParams p;
    p.kind = TopologyKind::Cayley;
    p.order = GetParam().nodes;
    p.generators = GetParam().steps;
    return p;
  }());
  const CirculantRouting routing(graph, params(DeadlockScheme::Dateline));
  const auto n = static_cast<NodeId>(graph.node_count());
  int diameter = 0;
  for (NodeId src = 0; src < n; ++src) {
    const std::vector<int> d = distances(GetParam(), static_cast<int>(src));
    for (NodeId dst = 0; dst < n; ++dst) {
      ASSERT_EQ(graph.min_hops(src, dst), d[dst]) << src << " -> " << dst;
      ASSERT_EQ(topology.min_hops(src, dst), d[dst]);
      diameter = std::max(diameter, d[dst]);
      const std::vector<test::CayleyHop> path =
          test::cayley_walk(graph, routing, src, dst, graph.node_count());
      ASSERT_EQ(static_cast<int>(path.size()), d[dst])
          << src << " -> " << dst << (path.empty() ? ": no delivery" : "");
      for (std::size_t i = 1; i < path.size(); ++i) {
        // Ports never go back in order, and a generator's run keeps its sign: never +s then -s.
        ASSERT_GE(path[i].port, path[i - 1].port) << src << " -> " << dst;
        ASSERT_FALSE(path[i].port / 2 == path[i - 1].port / 2 && path[i].port != path[i - 1].port);
      }
    }
  }
  EXPECT_EQ(graph.diameter(), diameter);
}

// The argument in circulant_routing.h: generators in order, each run crossing its cycle's wrap
// link at most once.
TEST_P(CirculantShapes, DatelineChannelDependenciesAreAcyclic) {
  const Circulant graph(GetParam().nodes, GetParam().steps);
  const CirculantRouting dateline(graph, params(DeadlockScheme::Dateline));
  EXPECT_FALSE(test::has_cycle(test::cayley_dependencies(graph, dateline, 2, graph.node_count())));
}

INSTANTIATE_TEST_SUITE_P(Circulants, CirculantShapes,
                         testing::Values(Shape{8, {1}}, Shape{9, {1}}, Shape{16, {1, 4}},
                                         Shape{15, {3, 5}}, Shape{27, {1, 3, 9}},
                                         Shape{64, {1, 4, 16}}, Shape{50, {1, 7}},
                                         Shape{128, {1, 12, 41}}, Shape{31, {2, 5, 13}}));

// Without the dateline, the rings' channels wait on each other round the cycle: the check above
// can fail.
TEST(CirculantRouting, OneClassLeavesTheRingsCyclic) {
  const Circulant graph(16, {1, 4});
  const CirculantRouting bubble(graph, params(DeadlockScheme::Bubble));
  EXPECT_TRUE(test::has_cycle(test::cayley_dependencies(graph, bubble, 1, graph.node_count())));
}

TEST(CirculantRouting, TheBubbleAsksForALargestPacketMoreOnlyWhenARunStarts) {
  const Circulant graph(16, {1, 4});
  const CirculantRouting routing(graph, params(DeadlockScheme::Bubble));
  // 0 -> 6: +1 twice, then +4 (ports 0, 0, 2).
  const std::vector<test::CayleyHop> path = test::cayley_walk(graph, routing, 0, 6, 16);
  ASSERT_EQ(path.size(), 3U);
  const int flits = 5;
  RouteStep step = routing.route(0, 6, std::nullopt, 0);
  EXPECT_EQ(step.port, 0);
  EXPECT_EQ(routing.required_credits(step, flits), flits + kMaxPacketFlits);
  step = routing.route(1, 6, PortId{0}, 0);
  EXPECT_EQ(step.port, 0);
  EXPECT_EQ(routing.required_credits(step, flits), flits);
  step = routing.route(2, 6, PortId{0}, 0);
  EXPECT_EQ(step.port, 2);
  EXPECT_EQ(routing.required_credits(step, flits), flits + kMaxPacketFlits);
}

TEST(CirculantParams, StepsThatWouldNotMakeAConnectedSimpleGraphAreRefused) {
  const auto refused = [](int order, std::vector<int> steps, const std::string& key,
                          const std::string& says) {
    TopologyParams p;
    p.kind = TopologyKind::Cayley;
    p.order = order;
    p.generators = std::move(steps);
    test::expect_refused([&] { p.validate(); }, key, says);
  };
  refused(1, {1}, "topology.order", "2 to 65536");
  refused(70000, {1}, "topology.order", "2 to 65536");
  refused(16, {}, "topology.generators", "1 to 8 generators");
  refused(64, {1, 2, 3, 4, 5, 6, 7, 9, 10}, "topology.generators", "1 to 8 generators");
  refused(16, {0}, "topology.generators", "1 to 15");
  refused(16, {1, 8}, "topology.generators", "half of topology.order");
  refused(16, {3, 13}, "topology.generators", "the same links");
  refused(16, {2, 6}, "topology.generators", "common divisor 2");
  TopologyParams fine;
  fine.kind = TopologyKind::Cayley;
  fine.order = 512;
  fine.generators = {1, 8, 64};
  EXPECT_NO_THROW(fine.validate());
  EXPECT_EQ(fine.node_count(), 512);
  EXPECT_EQ(diameter(fine), Circulant(512, {1, 8, 64}).diameter());
}

}  // namespace
}  // namespace angara
