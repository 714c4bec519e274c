// Unit tests of the fat tree and its routing: the wiring is a k-ary n-tree (every link the same
// seen from both ends, up ports one level up, hosts on the leaves' local ports); every route ends
// at its destination's host port in the fewest links (all pairs, against a breadth-first search
// of the wiring); the channel-dependency graph is acyclic; the up path is drawn per packet, evenly
// over the top switches, and a packet's key always gives the same path.

#include "models/topology/fat_tree.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <ostream>
#include <vector>

#include "models/core/config_error.h"
#include "models/core/params.h"
#include "models/routing/nca_routing.h"
#include "models/topology/topology.h"
#include "regress/support/graph.h"

namespace angara {
namespace {

struct Shape {
  int k;
  int levels;
};

std::ostream& operator<<(std::ostream& os, const Shape& s) {
  return os << s.k << "-ary " << s.levels << "-tree";
}

// The links of a walk from `src`'s leaf to `dst` along `routing`, as (router, output port);
// nullopt if it does not eject at `dst`'s host port within 4 * levels steps.
std::optional<std::vector<LinkEnd>> walk(const FatTree& tree, const NcaRouting& routing, NodeId src,
                                         NodeId dst, std::uint64_t key) {
  std::vector<LinkEnd> path;
  NodeId here = tree.leaf(src);
  for (int step = 0; step <= 4 * tree.levels(); ++step) {
    const RouteStep s = routing.route(here, dst, key);
    if (s.eject) {
      if (here != tree.leaf(dst) || s.port != dst % static_cast<NodeId>(tree.k())) {
        return std::nullopt;
      }
      return path;
    }
    path.push_back({here, s.port});
    here = tree.peer(here, s.port).router;
  }
  return std::nullopt;
}

// Links between two routers by breadth-first search of the wiring, from `src` to every router.
std::vector<int> distances(const FatTree& tree, NodeId src) {
  return test::bfs_distances(tree.router_count(), static_cast<int>(src), [&](int r, auto visit) {
    for (int p = 0; p < tree.ports(static_cast<NodeId>(r)); ++p) {
      visit(static_cast<int>(tree.peer(static_cast<NodeId>(r), static_cast<PortId>(p)).router));
    }
  });
}

class FatTreeShapes : public testing::TestWithParam<Shape> {};

TEST_P(FatTreeShapes, WiringIsAKaryNTree) {
  const FatTree tree(GetParam().k, GetParam().levels);
  const int k = GetParam().k, n = GetParam().levels;
  int power = 1;
  for (int l = 0; l < n; ++l) power *= k;
  ASSERT_EQ(tree.node_count(), power);
  ASSERT_EQ(tree.router_count(), n * power / k);
  const Topology topology(TopologyParams{.kind = TopologyKind::FatTree, .k = k, .levels = n});
  for (NodeId r = 0; r < static_cast<NodeId>(tree.router_count()); ++r) {
    const int level = tree.level(r);
    const int expected_ports = level == n - 1 ? (level == 0 ? 0 : k) : (level == 0 ? k : 2 * k);
    ASSERT_EQ(tree.ports(r), expected_ports) << tree.format(r);
    // Hosts on the leaves' local ports, none above them.
    ASSERT_EQ(topology.locals(r), level == 0 ? k : 0) << tree.format(r);
    for (int p = 0; p < tree.ports(r); ++p) {
      const LinkEnd end = tree.peer(r, static_cast<PortId>(p));
      ASSERT_LT(end.router, static_cast<NodeId>(tree.router_count()));
      ASSERT_LT(end.port, tree.ports(end.router));
      const LinkEnd back = tree.peer(end.router, end.port);
      ASSERT_EQ(back.router, r) << tree.format(r) << " port " << p;
      ASSERT_EQ(back.port, p) << tree.format(r) << " port " << p;
      // An up port climbs exactly one level, a down port descends one.
      const bool up = tree.is_up(r, static_cast<PortId>(p));
      ASSERT_EQ(tree.level(end.router), level + (up ? 1 : -1)) << tree.format(r) << " port " << p;
      ASSERT_NE(tree.is_up(end.router, end.port), up);
    }
  }
  // Node p on leaf p / k, host port p mod k: each leaf's nodes in port order.
  for (NodeId node = 0; node < static_cast<NodeId>(power); ++node) {
    const NodeId leaf = topology.router_of(node);
    ASSERT_EQ(tree.level(leaf), 0);
    ASSERT_EQ(topology.first_node(leaf) + node % static_cast<NodeId>(k), node);
  }
}

TEST_P(FatTreeShapes, EveryRouteIsMinimalAndEndsAtItsDestination) {
  const FatTree tree(GetParam().k, GetParam().levels);
  const NcaRouting routing(tree, 7);
  const auto nodes = static_cast<NodeId>(tree.node_count());
  for (NodeId src = 0; src < nodes; ++src) {
    const std::vector<int> d = distances(tree, tree.leaf(src));
    for (NodeId dst = 0; dst < nodes; ++dst) {
      ASSERT_EQ(tree.min_hops(src, dst), d[tree.leaf(dst)]) << src << " -> " << dst;
      for (std::uint64_t key = 0; key < 4; ++key) {
        const auto path = walk(tree, routing, src, dst, key);
        ASSERT_TRUE(path) << src << " -> " << dst << " key " << key << ": no delivery";
        ASSERT_EQ(static_cast<int>(path->size()), d[tree.leaf(dst)])
            << src << " -> " << dst << " key " << key;
      }
    }
  }
}

// The argument in nca_routing.h: up, then down, never up again, so no channel waits on itself.
TEST_P(FatTreeShapes, ChannelDependencyGraphIsAcyclic) {
  const FatTree tree(GetParam().k, GetParam().levels);
  const NcaRouting routing(tree, 11);
  const int ports = 2 * tree.k();
  test::Graph graph(static_cast<std::size_t>(tree.router_count() * ports));
  const auto channel = [&](const LinkEnd& e) {
    return static_cast<int>(e.router) * ports + e.port;
  };
  std::size_t edges = 0;
  const auto nodes = static_cast<NodeId>(tree.node_count());
  for (NodeId src = 0; src < nodes; ++src) {
    for (NodeId dst = 0; dst < nodes; ++dst) {
      for (std::uint64_t key = 0; key < 8; ++key) {
        const std::vector<LinkEnd> path = walk(tree, routing, src, dst, key).value();
        for (std::size_t i = 1; i < path.size(); ++i) {
          graph[channel(path[i - 1])].push_back(channel(path[i]));
          ++edges;
        }
      }
    }
  }
  if (tree.levels() == 1) {  // one switch: no links to depend on one another
    EXPECT_EQ(edges, 0U);
    return;
  }
  ASSERT_GT(edges, 0U);
  EXPECT_FALSE(test::has_cycle(graph));
  // The check can fail: one dependency the other way round closes a cycle.
  const int from = channel(walk(tree, routing, 0, nodes - 1, 0).value().front());
  graph[graph[from].front()].push_back(from);
  EXPECT_TRUE(test::has_cycle(graph));
}

INSTANTIATE_TEST_SUITE_P(Shapes, FatTreeShapes,
                         testing::Values(Shape{2, 1}, Shape{2, 3}, Shape{3, 2}, Shape{4, 3},
                                         Shape{8, 2}));

// A pair whose common ancestors are the top level reaches each of them about equally often.
TEST(FatTreeRouting, UpPathsSpreadEvenlyOverTheCommonAncestors) {
  const FatTree tree(4, 3);
  const NcaRouting routing(tree, 3);
  const NodeId src = 0, dst = 63;
  ASSERT_EQ(tree.common_level(src, dst), 2);
  std::map<NodeId, int> tops;
  constexpr int kPackets = 16000;
  for (std::uint64_t key = 0; key < kPackets; ++key) {
    const std::vector<LinkEnd> path = walk(tree, routing, src, dst, key).value();
    for (const LinkEnd& e : path) {
      if (tree.level(e.router) == 2) ++tops[e.router];
    }
  }
  ASSERT_EQ(tops.size(), 16U);  // every top switch is one of their common ancestors
  for (const auto& [top, count] : tops) {
    EXPECT_NEAR(count, kPackets / 16, 150) << tree.format(top);  // about 5 sigma of 1000
  }
}

TEST(FatTreeRouting, AKeyAlwaysTakesTheSamePathAndTheSeedChangesIt) {
  const FatTree tree(4, 3);
  const NcaRouting a(tree, 1), b(tree, 2);
  int differ = 0;
  for (std::uint64_t key = 0; key < 64; ++key) {
    const auto first = walk(tree, a, 5, 60, key).value();
    const auto again = walk(tree, a, 5, 60, key).value();
    ASSERT_EQ(first.size(), again.size());
    for (std::size_t i = 0; i < first.size(); ++i) ASSERT_EQ(first[i].port, again[i].port);
    const auto other = walk(tree, b, 5, 60, key).value();
    for (std::size_t i = 0; i < first.size(); ++i) differ += first[i].port != other[i].port;
  }
  EXPECT_GT(differ, 0);
}

TEST(FatTreeParams, CountsAndLimits) {
  TopologyParams p{.kind = TopologyKind::FatTree, .k = 8, .levels = 3};
  EXPECT_EQ(p.node_count(), 512);
  EXPECT_EQ(p.diameter(), 4);  // leaf, up to the top, down to a leaf
  EXPECT_NO_THROW(p.validate());
  EXPECT_NO_THROW(p.check_node("traffic.hotspot_node", {511}));
  EXPECT_THROW(p.check_node("traffic.hotspot_node", {512}), ConfigError);
  EXPECT_THROW(p.check_node("traffic.hotspot_node", {1, 2}), ConfigError);
  p.k = 1;
  EXPECT_THROW(p.validate(), ConfigError);
  p.k = 16;  // 2k = 32 link ports: more than a router has
  EXPECT_THROW(p.validate(), ConfigError);
  p.k = 4;
  p.levels = 9;  // 4^9 nodes: more than 16-bit ids
  EXPECT_THROW(p.validate(), ConfigError);
  p.levels = 0;
  EXPECT_THROW(p.validate(), ConfigError);
}

TEST(Topology, TorusPortsLeadToTheNeighbourOnTheInputOfTheDirection) {
  const Topology topology(TopologyParams{.dims = {4, 3}});
  const Torus& torus = *topology.torus();
  EXPECT_EQ(topology.router_count(), 12);
  for (NodeId n = 0; n < 12; ++n) {
    ASSERT_EQ(topology.ports(n), 4);
    for (int d = 0; d < 4; ++d) {
      const LinkEnd end = topology.peer(n, static_cast<PortId>(d));
      EXPECT_EQ(end.router, torus.neighbor(n, Direction::from_index(d)));
      EXPECT_EQ(end.port, d);
    }
  }
}

}  // namespace
}  // namespace angara
