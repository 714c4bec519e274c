// Unit tests of the star and pancake graphs (topology.kind = "cayley") and their routing: every
// generator leads back by itself; the distances are those of a breadth-first search from every
// node, and the diameters the published ones; every route ends at its destination in the fewest
// hops; under hop classes the channel-dependency graph is acyclic (with one class it is not, so
// the check can fail); an order that is no factorial is refused.

#include "models/topology/permutation_graph.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "models/core/config_error.h"
#include "models/core/params.h"
#include "models/routing/permutation_routing.h"
#include "regress/support/cayley_walk.h"
#include "regress/support/graph.h"

namespace angara {
namespace {

using Family = PermutationGraph::Family;

struct Shape {
  Family family;
  int symbols;
  int diameter;  // star: floor(3(m - 1) / 2); pancake: 3, 4, 5, 7 for m = 3 .. 6
};

std::ostream& operator<<(std::ostream& os, const Shape& s) {
  return os << (s.family == Family::Star ? "star" : "pancake") << s.symbols;
}

std::vector<int> distances(const PermutationGraph& graph, NodeId src) {
  return test::bfs_distances(graph.node_count(), static_cast<int>(src), [&](int at, auto visit) {
    for (int p = 0; p < graph.ports(); ++p) {
      visit(static_cast<int>(graph.neighbor(static_cast<NodeId>(at), static_cast<PortId>(p))));
    }
  });
}

RouterParams hop_classes(int vcs) {
  RouterParams p;
  p.deadlock = DeadlockScheme::HopClasses;
  p.vcs = vcs;
  return p;
}

class PermutationShapes : public testing::TestWithParam<Shape> {};

TEST_P(PermutationShapes, EveryGeneratorLeadsBackByItselfToAnotherOrdering) {
  const PermutationGraph graph(GetParam().family, GetParam().symbols);
  int factorial = 1;
  for (int m = 2; m <= GetParam().symbols; ++m) factorial *= m;
  ASSERT_EQ(graph.node_count(), factorial);
  for (NodeId n = 0; n < static_cast<NodeId>(graph.node_count()); ++n) {
    for (int p = 0; p < graph.ports(); ++p) {
      const NodeId next = graph.neighbor(n, static_cast<PortId>(p));
      ASSERT_NE(next, n);
      ASSERT_EQ(graph.neighbor(next, static_cast<PortId>(p)), n) << graph.format(n) << " " << p;
    }
  }
  std::string first = "(";
  for (int i = 0; i < GetParam().symbols; ++i) first += (i ? "," : "") + std::to_string(i);
  EXPECT_EQ(graph.format(0), first + ")");
}

TEST_P(PermutationShapes, EveryRouteIsMinimalAndTheDiameterThePublishedOne) {
  const PermutationGraph graph(GetParam().family, GetParam().symbols);
  const PermutationRouting routing(graph, hop_classes(8));
  const auto n = static_cast<NodeId>(graph.node_count());
  int diameter = 0;
  for (NodeId src = 0; src < n; ++src) {
    const std::vector<int> d = distances(graph, src);
    for (NodeId dst = 0; dst < n; ++dst) {
      ASSERT_EQ(graph.min_hops(src, dst), d[dst])
          << graph.format(src) << " -> " << graph.format(dst);
      diameter = std::max(diameter, d[dst]);
      const std::vector<test::CayleyHop> path =
          test::cayley_walk(graph, routing, src, dst, graph.diameter());
      ASSERT_EQ(static_cast<int>(path.size()), d[dst]) << src << " -> " << dst;
      for (std::size_t h = 0; h < path.size(); ++h)
        ASSERT_EQ(path[h].vc_class, static_cast<int>(h));
    }
  }
  EXPECT_EQ(diameter, GetParam().diameter);
  EXPECT_EQ(graph.diameter(), GetParam().diameter);
}

TEST_P(PermutationShapes, HopClassesLeaveNoCycleAndOneClassDoes) {
  const PermutationGraph graph(GetParam().family, GetParam().symbols);
  EXPECT_FALSE(test::has_cycle(test::cayley_dependencies(
      graph, PermutationRouting(graph, hop_classes(8)), 8, graph.diameter())));
  RouterParams one;
  one.deadlock = DeadlockScheme::None;
  EXPECT_TRUE(test::has_cycle(
      test::cayley_dependencies(graph, PermutationRouting(graph, one), 1, graph.diameter())));
}

INSTANTIATE_TEST_SUITE_P(Graphs, PermutationShapes,
                         testing::Values(Shape{Family::Star, 3, 3}, Shape{Family::Star, 4, 4},
                                         Shape{Family::Star, 5, 6}, Shape{Family::Pancake, 3, 3},
                                         Shape{Family::Pancake, 4, 4},
                                         Shape{Family::Pancake, 5, 5}));

// The larger graphs' diameters, without the all-pairs walk.
TEST(PermutationGraph, LargerDiametersAreThePublishedOnes) {
  EXPECT_EQ(PermutationGraph(Family::Star, 6).diameter(), 7);
  EXPECT_EQ(PermutationGraph(Family::Pancake, 6).diameter(), 7);
  EXPECT_EQ(PermutationGraph(Family::Pancake, 7).diameter(), 8);
  EXPECT_EQ(PermutationGraph(Family::Star, 7).diameter(), 9);
}

TEST(PermutationGraph, AnOrderThatIsNoFactorialIsRefused) {
  TopologyParams p;
  p.kind = TopologyKind::Cayley;
  p.group = CayleyGroup::Star;
  p.order = 100;
  try {
    p.validate();
    ADD_FAILURE() << "order 100 accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "topology.order");
    EXPECT_NE(std::string(e.what()).find("120"), std::string::npos) << e.what();
  }
  p.order = 720;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.symbols(), 6);
}

}  // namespace
}  // namespace angara
