// Unit tests of the torus geometry: coordinates, neighbours, wrap links and minimal distances.

#include "models/topology/torus.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "regress/support/graph.h"

namespace angara {
namespace {

std::string shape_name(const std::vector<int>& dims) {
  std::string name;
  for (int k : dims) name += (name.empty() ? "" : "x") + std::to_string(k);
  return name;
}

// Shortest path lengths from `from` to every node, by breadth-first search over neighbor().
std::vector<int> bfs_distances(const Torus& torus, NodeId from) {
  return test::bfs_distances(torus.node_count(), static_cast<int>(from), [&](int at, auto visit) {
    for (int i = 0; i < torus.direction_count(); ++i) {
      visit(static_cast<int>(torus.neighbor(static_cast<NodeId>(at), Direction::from_index(i))));
    }
  });
}

const std::vector<std::vector<int>> kShapes = {{2, 2, 2}, {5, 3}, {16, 16, 32}, {8, 8, 8, 16}};

TEST(Torus, NodeCountIsProductOfRingSizes) {
  EXPECT_EQ(Torus({2, 2, 2}).node_count(), 8);
  EXPECT_EQ(Torus({5, 3}).node_count(), 15);
  EXPECT_EQ(Torus({16, 16, 32}).node_count(), 8192);
  EXPECT_EQ(Torus({8, 8, 8, 16}).node_count(), 8192);
  EXPECT_EQ(Torus({8, 8, 8, 16}).direction_count(), 8);
  EXPECT_EQ(Torus({5, 3}).direction_count(), 4);
}

TEST(Torus, CoordsAndNodeRoundTripForEveryNode) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      const Coords c = torus.coords(n);
      for (int d = 0; d < torus.dims(); ++d) {
        ASSERT_GE(c[d], 0) << "node " << n;
        ASSERT_LT(c[d], torus.size(d)) << "node " << n;
      }
      for (int d = torus.dims(); d < kMaxDims; ++d) ASSERT_EQ(c[d], 0) << "node " << n;
      ASSERT_EQ(torus.node(c), n);
    }
  }
}

TEST(Torus, XVariesFastest) {
  const Torus torus({5, 3});
  EXPECT_EQ(torus.coords(1), (Coords{1, 0, 0, 0}));
  EXPECT_EQ(torus.coords(5), (Coords{0, 1, 0, 0}));
  EXPECT_EQ(torus.coords(14), (Coords{4, 2, 0, 0}));
  const Torus big({8, 8, 8, 16});
  EXPECT_EQ(big.node({1, 2, 3, 4}), NodeId{1 + 2 * 8 + 3 * 64 + 4 * 512});
}

TEST(Torus, NeighborMovesOneStepAlongItsDimensionOnly) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      const Coords c = torus.coords(n);
      for (int i = 0; i < torus.direction_count(); ++i) {
        const Direction d = Direction::from_index(i);
        const Coords nc = torus.coords(torus.neighbor(n, d));
        const int k = torus.size(d.dim);
        for (int dim = 0; dim < kMaxDims; ++dim) {
          const int expected = dim != d.dim ? c[dim] : (c[dim] + (d.negative ? k - 1 : 1)) % k;
          ASSERT_EQ(nc[dim], expected) << "node " << n << " dir " << d.name() << " dim " << dim;
        }
      }
    }
  }
}

TEST(Torus, OppositeDirectionInvertsNeighbor) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      for (int i = 0; i < torus.direction_count(); ++i) {
        const Direction d = Direction::from_index(i);
        ASSERT_EQ(torus.neighbor(torus.neighbor(n, d), d.opposite()), n)
            << "node " << n << " dir " << d.name();
      }
    }
  }
}

TEST(Torus, RingOfTwoHasTheSameNeighborBothWays) {
  const Torus torus({2, 2, 2});
  for (NodeId n = 0; n < 8; ++n) {
    for (int dim = 0; dim < 3; ++dim) {
      const NodeId plus = torus.neighbor(n, {dim, false});
      EXPECT_EQ(plus, torus.neighbor(n, {dim, true})) << "node " << n << " dim " << dim;
      EXPECT_NE(plus, n);
      EXPECT_EQ(torus.coords(plus)[dim], 1 - torus.coords(n)[dim]);
    }
  }
  // Mixed shape: Y has two nodes, X has five.
  const Torus mixed({5, 2});
  EXPECT_EQ(mixed.neighbor(mixed.node({3, 0}), {1, false}), mixed.node({3, 1}));
  EXPECT_EQ(mixed.neighbor(mixed.node({3, 0}), {1, true}), mixed.node({3, 1}));
  EXPECT_NE(mixed.neighbor(mixed.node({3, 0}), {0, false}),
            mixed.neighbor(mixed.node({3, 0}), {0, true}));
}

TEST(Torus, WrapHopIsTheLinkFromTheLastToTheFirstCoordinate) {
  const Torus torus({5, 3});
  EXPECT_TRUE(torus.is_wrap_hop(torus.node({4, 1}), {0, false}));
  EXPECT_FALSE(torus.is_wrap_hop(torus.node({3, 1}), {0, false}));
  EXPECT_TRUE(torus.is_wrap_hop(torus.node({0, 1}), {0, true}));
  EXPECT_FALSE(torus.is_wrap_hop(torus.node({4, 1}), {0, true}));
  EXPECT_TRUE(torus.is_wrap_hop(torus.node({2, 2}), {1, false}));
  EXPECT_TRUE(torus.is_wrap_hop(torus.node({2, 0}), {1, true}));
  EXPECT_FALSE(torus.is_wrap_hop(torus.node({2, 1}), {1, false}));
  EXPECT_FALSE(torus.is_wrap_hop(torus.node({2, 1}), {1, true}));

  // In general: a hop wraps exactly when the coordinate jumps against the direction of motion,
  // and every ring has exactly one wrap link per direction.
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus t(dims);
    std::vector<int> wraps(t.direction_count(), 0);
    for (NodeId n = 0; n < static_cast<NodeId>(t.node_count()); ++n) {
      for (int i = 0; i < t.direction_count(); ++i) {
        const Direction d = Direction::from_index(i);
        const int from = t.coords(n)[d.dim], to = t.coords(t.neighbor(n, d))[d.dim];
        const bool jumps_back = d.negative ? to > from : to < from;
        ASSERT_EQ(t.is_wrap_hop(n, d), jumps_back) << "node " << n << " dir " << d.name();
        wraps[i] += jumps_back ? 1 : 0;
      }
    }
    for (int i = 0; i < t.direction_count(); ++i) {
      const int dim = Direction::from_index(i).dim;
      EXPECT_EQ(wraps[i], t.node_count() / t.size(dim)) << Direction::from_index(i).name();
    }
  }
}

TEST(Torus, RingOffsetIsMinimalAndTiesGoPositive) {
  const Torus torus({4, 5, 2, 6});
  EXPECT_EQ(torus.ring_offset(0, 2, 0), 2);  // k = 4: tie, positive
  EXPECT_EQ(torus.ring_offset(2, 0, 0), 2);
  EXPECT_EQ(torus.ring_offset(1, 3, 0), 2);
  EXPECT_EQ(torus.ring_offset(3, 1, 0), 2);
  EXPECT_EQ(torus.ring_offset(0, 3, 0), -1);
  EXPECT_EQ(torus.ring_offset(3, 0, 0), 1);
  EXPECT_EQ(torus.ring_offset(0, 0, 0), 0);
  EXPECT_EQ(torus.ring_offset(0, 2, 1), 2);  // k = 5: no ties
  EXPECT_EQ(torus.ring_offset(0, 3, 1), -2);
  EXPECT_EQ(torus.ring_offset(4, 1, 1), 2);
  EXPECT_EQ(torus.ring_offset(0, 1, 2), 1);  // k = 2: both ways tie, positive
  EXPECT_EQ(torus.ring_offset(1, 0, 2), 1);
  EXPECT_EQ(torus.ring_offset(1, 4, 3), 3);  // k = 6: tie, positive
  EXPECT_EQ(torus.ring_offset(4, 1, 3), 3);
  EXPECT_EQ(torus.ring_offset(5, 0, 3), 1);
  EXPECT_EQ(torus.ring_offset(0, 5, 3), -1);

  for (int dim = 0; dim < torus.dims(); ++dim) {
    const int k = torus.size(dim);
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        const int off = torus.ring_offset(a, b, dim);
        EXPECT_GT(2 * off, -k) << a << "->" << b << " k=" << k;
        EXPECT_LE(2 * off, k) << a << "->" << b << " k=" << k;
        EXPECT_EQ(((a + off) % k + k) % k, b) << a << "->" << b << " k=" << k;
      }
    }
  }
}

TEST(Torus, MinHopsIsSymmetricAndEqualsBreadthFirstDistance) {
  for (const std::vector<int>& dims :
       std::vector<std::vector<int>>{{4, 4}, {3, 3, 3}, {5, 3}, {2, 2, 2, 2}, {6}, {2, 7}}) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId a = 0; a < static_cast<NodeId>(torus.node_count()); ++a) {
      const std::vector<int> dist = bfs_distances(torus, a);
      for (NodeId b = 0; b < static_cast<NodeId>(torus.node_count()); ++b) {
        ASSERT_EQ(torus.min_hops(a, b), dist[b]) << torus.format(a) << "->" << torus.format(b);
        ASSERT_EQ(torus.min_hops(a, b), torus.min_hops(b, a))
            << torus.format(a) << "<->" << torus.format(b);
      }
    }
  }
}

TEST(Torus, MinHopsOnALargeTorus) {
  const Torus torus({16, 16, 32});
  EXPECT_EQ(torus.min_hops(torus.node({0, 0, 0}), torus.node({8, 8, 16})), 32);  // diameter
  EXPECT_EQ(torus.min_hops(torus.node({15, 0, 31}), torus.node({0, 0, 0})), 2);
  EXPECT_EQ(torus.min_hops(torus.node({3, 12, 5}), torus.node({10, 2, 30})), 7 + 6 + 7);
}

TEST(Torus, FormatListsTheCoordinates) {
  EXPECT_EQ(Torus({2, 2, 2}).format(0), "(0,0,0)");
  EXPECT_EQ(Torus({2, 2, 2}).format(5), "(1,0,1)");
  EXPECT_EQ(Torus({5, 3}).format(7), "(2,1)");
  EXPECT_EQ(Torus({8, 8, 8, 16}).format(8191), "(7,7,7,15)");
  EXPECT_EQ(Torus({16, 16, 32}).format(Torus({16, 16, 32}).node({10, 11, 12})), "(10,11,12)");
  EXPECT_EQ(Torus({6}).format(4), "(4)");
}

}  // namespace
}  // namespace angara
