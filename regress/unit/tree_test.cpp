// Unit tests of the collective subnet's spanning trees: the dimension-order builder (shape of the
// tree, minimal paths, pruning to transit nodes) and the validator, rule by rule.

#include "collectives/subnet/tree.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "models/core/config_error.h"
#include "models/core/params.h"

namespace angara {
namespace {

std::string shape_name(const std::vector<int>& dims) {
  std::string name;
  for (int k : dims) name += (name.empty() ? "" : "x") + std::to_string(k);
  return name;
}

const std::vector<std::vector<int>> kShapes = {{2, 2, 2}, {3, 3, 3},    {5, 3}, {4, 4, 4, 2},
                                               {8, 8},    {2, 2, 2, 2}, {5}};

NodeId at(const Torus& torus, std::initializer_list<int> c) {
  Coords coords{};
  int d = 0;
  for (int x : c) coords[d++] = x;
  return torus.node(coords);
}

void add_dir(TreeRow& row, Direction d) {
  row.dirs = static_cast<std::uint8_t>(row.dirs | (1U << d.index()));
  row.dir_sum = std::popcount(static_cast<unsigned>(row.dirs));
}

void remove_dir(TreeRow& row, Direction d) {
  row.dirs = static_cast<std::uint8_t>(row.dirs & ~(1U << d.index()));
  row.dir_sum = std::popcount(static_cast<unsigned>(row.dirs));
}

constexpr Direction kPlusX{0, false}, kMinusX{0, true}, kPlusY{1, false}, kMinusY{1, true},
    kPlusZ{2, false}, kMinusZ{2, true};

// Runs validate_tree, which must throw a ConfigError for the tree whose message holds every
// string of `parts`.
void expect_invalid(const Torus& torus, const Tree& tree, const std::vector<std::string>& parts) {
  try {
    validate_tree(torus, tree);
    ADD_FAILURE() << "validate_tree accepted the tree";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "collective.tree[" + std::to_string(tree.id) + "]");
    const std::string what = e.what();
    for (const std::string& part : parts) {
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
    }
  }
}

// The down directions the spec gives a node, from its offsets to the root alone: the root gets
// both directions of every dimension, another node straight on along its last differing ring
// (when the next node is still on its side) and both directions of every later dimension; a
// ring of 2 nodes has only the + direction, and a ring of k covers offsets 1..k/2 on the + side
// and 1..(k+1)/2-1 on the - side.
std::set<int> expected_down(const Torus& torus, NodeId root, NodeId node) {
  std::set<int> out;
  int last = -1;
  int offset = 0;
  for (int d = 0; d < torus.dims(); ++d) {
    const int o = torus.ring_offset(torus.coords(root)[d], torus.coords(node)[d], d);
    if (o != 0) {
      last = d;
      offset = o;
    }
  }
  if (last >= 0) {
    const int k = torus.size(last);
    const int next = std::abs(offset) + 1;
    if (offset > 0 && next <= k / 2) out.insert(Direction{last, false}.index());
    if (offset < 0 && next <= (k + 1) / 2 - 1) out.insert(Direction{last, true}.index());
  }
  for (int d = last + 1; d < torus.dims(); ++d) {
    out.insert(Direction{d, false}.index());
    if (torus.size(d) > 2) out.insert(Direction{d, true}.index());
  }
  return out;
}

TEST(TreeRow, DownListsDirectionsInIndexOrder) {
  TreeRow row;
  add_dir(row, kMinusZ);
  add_dir(row, kPlusX);
  add_dir(row, kPlusY);
  EXPECT_EQ(row.dir_sum, 3);
  EXPECT_TRUE(row.has_dir(kPlusY));
  EXPECT_FALSE(row.has_dir(kMinusY));
  EXPECT_EQ(row.down(), (std::vector<Direction>{kPlusX, kPlusY, kMinusZ}));
}

TEST(Tree, BuiltTreesAreValidAndSpanEveryNodeForEveryRoot) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId root = 0; root < static_cast<NodeId>(torus.node_count()); ++root) {
      SCOPED_TRACE("root " + torus.format(root));
      const Tree tree = build_dimension_order_tree(torus, 3, root, {});
      EXPECT_EQ(tree.id, 3);
      EXPECT_EQ(tree.root, root);
      ASSERT_EQ(tree.rows.size(), static_cast<std::size_t>(torus.node_count()));
      EXPECT_NO_THROW(validate_tree(torus, tree));
      EXPECT_EQ(tree.pe_count(), torus.node_count());
      for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
        const TreeRow& row = tree.rows[n];
        EXPECT_TRUE(row.member && row.pe) << torus.format(n);
        EXPECT_EQ(row.is_root, n == root) << torus.format(n);
        EXPECT_EQ(row.to_root.has_value(), n != root) << torus.format(n);
        EXPECT_EQ(row.dir_sum, std::popcount(static_cast<unsigned>(row.dirs)));
      }
    }
  }
}

// With nothing failed the builder around failures gives the dimension-order tree itself; around
// random failed links and nodes its trees pass the validator, leave every failed node out, use no
// failed link, and span every live node whenever they are built at all (the machine then moves
// the root on, or refuses).
TEST(Tree, TreesAroundFailuresAreValidAndAvoidThem) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId root = 0; root < static_cast<NodeId>(torus.node_count()); ++root) {
      const auto same = build_tree_around_failures(torus, 2, root, {}, FaultMap());
      ASSERT_TRUE(same.has_value());
      const Tree dor = build_dimension_order_tree(torus, 2, root, {});
      for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
        EXPECT_EQ(same->rows[n].to_root, dor.rows[n].to_root) << torus.format(n);
        EXPECT_EQ(same->rows[n].dirs, dor.rows[n].dirs) << torus.format(n);
      }
    }
    int built = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      FaultParams params;
      params.random_links = 0.05;
      params.random_nodes = 0.05;
      const FaultMap faults(torus, params, seed);
      for (NodeId root = 0; root < static_cast<NodeId>(torus.node_count()); root += 3) {
        const auto tree = build_tree_around_failures(torus, 1, root, {}, faults);
        if (!tree) continue;
        ++built;
        SCOPED_TRACE("seed " + std::to_string(seed) + " root " + torus.format(root));
        EXPECT_NO_THROW(validate_tree(torus, *tree));
        for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
          const TreeRow& row = tree->rows[n];
          EXPECT_EQ(row.member && row.pe, !faults.node_failed(n)) << torus.format(n);
          EXPECT_FALSE(faults.node_failed(n) && row.member) << torus.format(n);
          if (row.member && row.to_root) {
            EXPECT_FALSE(faults.hop_failed(n, *row.to_root));
          }
        }
      }
    }
    EXPECT_GT(built, 0);
  }
}

TEST(Tree, DownDirectionsAreThoseOfTheSpec) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId root = 0; root < static_cast<NodeId>(torus.node_count()); ++root) {
      const Tree tree = build_dimension_order_tree(torus, 0, root, {});
      for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
        std::set<int> got;
        for (Direction d : tree.rows[n].down()) got.insert(d.index());
        EXPECT_EQ(got, expected_down(torus, root, n))
            << "root " << torus.format(root) << " node " << torus.format(n);
      }
    }
  }
}

TEST(Tree, PathToRootIsMinimalAndInReverseDimensionOrder) {
  for (const auto& dims : kShapes) {
    SCOPED_TRACE(shape_name(dims));
    const Torus torus(dims);
    for (NodeId root = 0; root < static_cast<NodeId>(torus.node_count()); ++root) {
      const Tree tree = build_dimension_order_tree(torus, 0, root, {});
      for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
        SCOPED_TRACE("root " + torus.format(root) + " node " + torus.format(n));
        NodeId here = n;
        int hops = 0;
        std::optional<Direction> previous;
        while (here != root && hops <= torus.node_count()) {
          const Direction up = *tree.rows[here].to_root;
          // Up moves go W, Z, Y, X: the dimension never grows, and on one ring keeps its way.
          if (previous) {
            ASSERT_LE(up.dim, previous->dim);
            if (up.dim == previous->dim) {
              ASSERT_EQ(up, *previous);
            }
          }
          previous = up;
          here = torus.neighbor(here, up);
          ++hops;
        }
        ASSERT_EQ(here, root);
        EXPECT_EQ(hops, torus.min_hops(n, root));
      }
    }
  }
}

TEST(Tree, RootHasBothDirectionsOfEveryDimensionExceptOnTwoNodeRings) {
  EXPECT_EQ(build_dimension_order_tree(Torus({3, 3, 3}), 0, 13, {}).rows[13].dir_sum, 6);
  EXPECT_EQ(build_dimension_order_tree(Torus({3, 3, 3}), 0, 0, {}).rows[0].dir_sum, 6);
  const Tree small = build_dimension_order_tree(Torus({2, 2, 2}), 0, 5, {});
  EXPECT_EQ(small.rows[5].dir_sum, 3);
  EXPECT_EQ(small.rows[5].down(), (std::vector<Direction>{kPlusX, kPlusY, kPlusZ}));
  EXPECT_EQ(build_dimension_order_tree(Torus({4, 4, 4, 2}), 0, 7, {}).rows[7].dir_sum, 7);
  EXPECT_EQ(build_dimension_order_tree(Torus({5}), 0, 2, {}).rows[2].dir_sum, 2);
}

TEST(Tree, TransitNodesAreExactlyThoseOnThePathsOfThePeNodes) {
  struct Case {
    std::vector<int> dims;
    NodeId root;
    std::vector<NodeId> pe_nodes;
  };
  const std::vector<Case> cases = {
      {{4, 4, 4}, 0, {63, 21, 2}},
      {{4, 4, 4}, 21, {0, 5, 42}},  // the root itself is not pe: it is a transit root
      {{5, 3}, 7, {0, 14}},
      {{8, 8}, 9, {63}},
      {{4, 4, 4, 2}, 100, {1, 64, 127, 100}},
      {{3, 3, 3}, 4, {}},  // no pe node at all: the root alone
  };
  for (const Case& c : cases) {
    const Torus torus(c.dims);
    SCOPED_TRACE(shape_name(c.dims) + " root " + torus.format(c.root));
    std::vector<bool> pe(static_cast<std::size_t>(torus.node_count()), false);
    for (NodeId n : c.pe_nodes) pe[n] = true;
    const Tree full = build_dimension_order_tree(torus, 1, c.root, {});
    const Tree tree = build_dimension_order_tree(torus, 1, c.root, pe);
    EXPECT_NO_THROW(validate_tree(torus, tree));

    // The expected members: the root and every node on a pe node's path up the full tree.
    std::set<NodeId> expected{c.root};
    for (NodeId n : c.pe_nodes) {
      for (NodeId here = n; here != c.root; here = torus.neighbor(here, *full.rows[here].to_root)) {
        expected.insert(here);
      }
    }
    std::set<NodeId> members;
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      const TreeRow& row = tree.rows[n];
      if (!row.member) {
        EXPECT_FALSE(row.pe || row.is_root || row.to_root || row.dirs || row.dir_sum)
            << "non-member " << torus.format(n) << " has a non-empty row";
        continue;
      }
      members.insert(n);
      EXPECT_EQ(row.pe, pe[n]) << torus.format(n);                      // transit nodes: pe = false
      EXPECT_EQ(row.to_root, full.rows[n].to_root) << torus.format(n);  // same paths, pruned
      if (row.dir_sum == 0 && n != c.root) {
        EXPECT_TRUE(row.pe) << "leaf " << torus.format(n);
      }
    }
    EXPECT_EQ(members, expected);
    EXPECT_EQ(tree.pe_count(), static_cast<int>(c.pe_nodes.size()));
    EXPECT_TRUE(tree.rows[c.root].is_root);
  }
}

TEST(Tree, BuilderRejectsBadIdRootAndPeSize) {
  const Torus torus({3, 3});
  EXPECT_THROW(build_dimension_order_tree(torus, 16, 0, {}), ConfigError);
  EXPECT_THROW(build_dimension_order_tree(torus, -1, 0, {}), ConfigError);
  EXPECT_THROW(build_dimension_order_tree(torus, 0, 9, {}), ConfigError);
  EXPECT_THROW(build_dimension_order_tree(torus, 0, 0, std::vector<bool>(8, true)), ConfigError);
  EXPECT_NO_THROW(build_dimension_order_tree(torus, 15, 8, std::vector<bool>(9, true)));
}

TEST(TreeValidator, TwoRoots) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 4, 0, {});
  tree.rows[at(torus, {1, 0, 0})].is_root = true;
  expect_invalid(torus, tree,
                 {"collective.tree[4]", "(0,0,0) (1,0,0) is_root", "2 nodes are marked is_root",
                  "exactly one root"});
}

TEST(TreeValidator, NoRoot) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 5, 0, {});
  tree.rows[0].is_root = false;
  expect_invalid(
      torus, tree,
      {"collective.tree[5]", "(0,0,0) is_root", "no node is marked is_root", "exactly one root"});
}

TEST(TreeValidator, RootWithUpDirection) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 0, 0, {});
  tree.rows[0].to_root = kPlusX;
  expect_invalid(torus, tree, {"(0,0,0) to_root", "the root has no up direction"});
}

TEST(TreeValidator, RootThatIsNotAMember) {
  const Torus torus({3, 3});
  Tree tree = build_dimension_order_tree(torus, 0, 0, std::vector<bool>(9, false));
  tree.rows[4].is_root = true;
  expect_invalid(torus, tree, {"(1,1) is_root", "the root must be a member"});
}

TEST(TreeValidator, DownDirectionToANodeWhoseUpDirectionIsNotTheOpposite) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 2, 0, {});
  // (1,1,0) hangs below (1,0,0) by +Y; pointing it up -X makes (1,0,0)'s +Y wrong.
  tree.rows[at(torus, {1, 1, 0})].to_root = kMinusX;
  expect_invalid(torus, tree,
                 {"collective.tree[2]", "(1,0,0) dirs", "down direction +Y leads to (1,1,0)",
                  "whose to_root is -X, not the opposite direction -Y"});
}

TEST(TreeValidator, DownDirectionToANonMember) {
  const Torus torus({5, 5});
  std::vector<bool> pe(25, false);
  pe[at(torus, {2, 0})] = true;
  Tree tree = build_dimension_order_tree(torus, 0, 0, pe);
  add_dir(tree.rows[0], kPlusY);
  expect_invalid(torus, tree,
                 {"(0,0) dirs", "down direction +Y leads to (0,1)", "not a member of the tree"});
}

TEST(TreeValidator, DownDirectionAlongAnEarlierDimension) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 6, 0, {});
  add_dir(tree.rows[at(torus, {0, 1, 0})], kPlusX);  // its up direction is -Y
  expect_invalid(torus, tree,
                 {"collective.tree[6]", "(0,1,0) dirs", "down direction +X",
                  "not after the up direction -Y", "X, Y, Z, W", "straight on (+Y)"});
}

TEST(TreeValidator, DownDirectionBackAlongTheUpRing) {
  const Torus torus({5, 3});
  Tree tree = build_dimension_order_tree(torus, 0, 0, {});
  add_dir(tree.rows[at(torus, {1, 0})], kMinusX);  // toward its own parent
  expect_invalid(torus, tree, {"(1,0) dirs", "down direction -X", "not after the up direction -X"});
}

TEST(TreeValidator, MemberWithoutUpDirection) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 0, 0, {});
  tree.rows[at(torus, {2, 2, 2})].to_root.reset();
  expect_invalid(torus, tree, {"(2,2,2) to_root", "needs an up direction"});
}

TEST(TreeValidator, MemberNotReachableFromTheRoot) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 7, 0, {});
  remove_dir(tree.rows[at(torus, {1, 0, 0})], kPlusY);  // (1,1,0) and its subtree are cut off
  expect_invalid(torus, tree,
                 {"collective.tree[7]", "(1,1,0) to_root", "to_root -Y leads to (1,0,0)",
                  "does not list +Y among its down directions", "not reachable from the root"});
}

TEST(TreeValidator, PeNodeThatIsNotAMember) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 8, 0, {});
  TreeRow& leaf = tree.rows[at(torus, {2, 2, 2})];
  ASSERT_EQ(leaf.dir_sum, 0);
  leaf.member = false;
  expect_invalid(torus, tree,
                 {"collective.tree[8]", "(2,2,2) pe", "a pe node must be a member of the tree"});
}

TEST(TreeValidator, NonMemberWithANonEmptyRow) {
  const Torus torus({5, 5});
  std::vector<bool> pe(25, false);
  pe[at(torus, {2, 0})] = true;
  Tree tree = build_dimension_order_tree(torus, 0, 0, pe);
  tree.rows[at(torus, {3, 3})].to_root = kMinusY;
  expect_invalid(torus, tree, {"(3,3) member", "must have an empty row"});
}

TEST(TreeValidator, WrongDirSum) {
  const Torus torus({3, 3, 3});
  Tree tree = build_dimension_order_tree(torus, 9, 0, {});
  tree.rows[0].dir_sum = 5;
  expect_invalid(torus, tree,
                 {"collective.tree[9]", "(0,0,0) dir_sum",
                  "dir_sum 5 must equal the number of down directions in dirs (6)"});
}

TEST(TreeValidator, Cycle) {
  // Row y=1 of a 3x3 tree rooted at (0,0) is rewired into a ring of +X links, each node hanging
  // below its -X neighbour: rules 2 to 4 hold, yet the row is not reachable from the root.
  const Torus torus({3, 3});
  Tree tree = build_dimension_order_tree(torus, 10, 0, {});
  for (int x = 0; x < 3; ++x) {
    remove_dir(tree.rows[at(torus, {x, 0})], kPlusY);
    TreeRow& row = tree.rows[at(torus, {x, 1})];
    row.to_root = kMinusX;
    row.dirs = 0;
    add_dir(row, kPlusX);
  }
  expect_invalid(torus, tree,
                 {"collective.tree[10]", "(0,1) to_root", "not reachable from the root", "cycle"});
}

TEST(TreeValidator, IdRowsAndDirectionsOutsideTheTorus) {
  const Torus torus({3, 3});
  Tree tree = build_dimension_order_tree(torus, 0, 0, {});
  Tree bad_id = tree;
  bad_id.id = 16;
  expect_invalid(torus, bad_id, {"collective.tree[16]", "id 16", "0..15"});
  Tree bad_rows = tree;
  bad_rows.rows.pop_back();
  expect_invalid(torus, bad_rows, {"8 rows", "one row per node (9)"});
  Tree bad_dirs = tree;
  add_dir(bad_dirs.rows[at(torus, {1, 1})], kPlusZ);
  expect_invalid(torus, bad_dirs, {"(1,1) dirs", "2-dimensional torus"});
}

TEST(Tree, SixteenOverlappingTreesOnA4x4x4Torus) {
  const Torus torus({4, 4, 4});
  std::vector<Tree> trees;
  std::set<NodeId> roots;
  for (int id = 0; id < kMaxTrees; ++id) {
    const NodeId root = static_cast<NodeId>((id * 37 + 5) % torus.node_count());
    // Every tree spans a different subset: nodes whose index is congruent to id mod 3, or all.
    std::vector<bool> pe;
    if (id % 2 == 1) {
      pe.assign(static_cast<std::size_t>(torus.node_count()), false);
      for (int n = id % 3; n < torus.node_count(); n += 3) pe[n] = true;
    }
    trees.push_back(build_dimension_order_tree(torus, id, root, pe));
    roots.insert(root);
  }
  EXPECT_EQ(roots.size(), 16U);
  for (const Tree& tree : trees) EXPECT_NO_THROW(validate_tree(torus, tree)) << tree.id;

  // Overlap: every node is in several trees, and links carry down traffic of several trees.
  int shared_links = 0;
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    int in_trees = 0;
    for (const Tree& tree : trees) in_trees += tree.rows[n].member ? 1 : 0;
    EXPECT_GE(in_trees, 8) << torus.format(n);  // at least the eight all-pe trees
    for (int i = 0; i < torus.direction_count(); ++i) {
      int using_link = 0;
      for (const Tree& tree : trees) using_link += tree.rows[n].has_dir(Direction::from_index(i));
      if (using_link >= 2) ++shared_links;
    }
  }
  EXPECT_GT(shared_links, torus.node_count());
}

}  // namespace
}  // namespace angara
