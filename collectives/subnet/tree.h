#pragma once
// Spanning trees of the hardware collective subnet: one routing-table row per
// node and tree, the dimension-order builder and the validator of the spec's tree rules.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/core/collective_format.h"
#include "models/core/ids.h"
#include "models/topology/faults.h"
#include "models/topology/torus.h"

namespace angara {

// One node's row of the routing table for one tree, fields named as in the spec.
struct TreeRow {
  bool member = false;               // the node belongs to the tree
  bool is_root = false;              // isRoot
  std::optional<Direction> to_root;  // toRoot: the up direction; none at the root
  bool pe = false;                   // Pe: the node's processor takes part; false = transit node
  std::uint8_t dirs = 0;             // Dirs: down directions, bit Direction::index()
  int dir_sum = 0;                   // Dir_sum: number of down directions, popcount(dirs)

  bool has_dir(Direction d) const { return ((dirs >> d.index()) & 1U) != 0; }
  // The down directions in index order (+X, -X, +Y, ...).
  std::vector<Direction> down() const;
};

// One tree laid over the torus: its id, its root and one row per node.
struct Tree {
  int id = 0;                 // TreeId, 0 .. kMaxTrees-1
  NodeId root = 0;            // the node whose row has is_root
  std::vector<TreeRow> rows;  // [node]; non-members have empty rows

  // Number of member nodes whose processor takes part (pe), transit nodes excluded.
  int pe_count() const;
};

// The trees of a machine by TreeId (null: TreeId unused).
using TreeSet = std::array<const Tree*, kMaxTrees>;

// `node`'s row of tree `tree`; a ModelError if the tree is unused or the node not in it (a
// collective packet for a tree that does not pass this node is a fault of the model).
const TreeRow& member_row(const TreeSet& trees, NodeId node, int tree);

// Builds the spec's tree from `root` in dimension order X, Y, Z, W: a node's path from the root
// moves along X to its x, then Y, Z, W, each the minimal way round the ring (ties go the
// positive way, as Torus::ring_offset). `pe[n]` says whether node n's processor takes part (empty
// = all do); branches leading to no pe node are pruned, so the tree spans exactly the pe nodes,
// the root and the transit nodes that connect them. Throws ConfigError for an id outside
// 0..kMaxTrees-1, a root outside the torus or a `pe` of the wrong size.
//
// Why the tree cannot deadlock. Along a node's path from the root the dimensions never decrease
// (X hops, then Y hops, ...), and within one dimension the hops all go one way along one ring,
// starting at the node whose offset on that ring is 0 and covering at most half the ring. Down
// (VCDown) traffic therefore only depends from a channel of one dimension on a channel of a later
// dimension or on the next channel straight on along the same ring segment; up (VCUp) traffic
// does the reverse, later to earlier dimension or straight on toward offset 0, never back. Order
// down channels by (dimension, distance from the root) and up channels by the reverse: every
// dependency moves strictly forward, so neither VC's channel-dependency graph has a cycle, and
// a ring segment never closes into the whole ring (no dateline or bubble is needed). Up traffic
// only turns into down traffic at the root, and down traffic ends at the processors, so the two
// VCs together stay acyclic.
Tree build_dimension_order_tree(const Torus& torus, int id, NodeId root,
                                const std::vector<bool>& pe);

// The same tree shape laid around failed links and nodes: within each ring a node is reached
// the way round the ring that build_dimension_order_tree takes when both ways are intact, else
// the other way, so with nothing failed the two builders give the same tree. Failed nodes take no
// part (their pe is false). Returns nullopt when a live node whose processor takes part cannot be
// reached, or the root is failed; the caller tries another root.
//
// Why it stays free of deadlock: a node's path from the root still takes the dimensions in order,
// and within one ring goes one way from the node where it entered the ring (the arms going each
// way from there reach different nodes, so they share no channel in either direction). Ordering
// down channels by (dimension, hops from the ring's entry) and up channels in reverse still makes
// every dependency move strictly forward; an arm may now cover more than half the ring, but it
// never closes into the whole ring, so no dateline or bubble is needed, as above.
std::optional<Tree> build_tree_around_failures(const Torus& torus, int id, NodeId root,
                                               const std::vector<bool>& pe, const FaultMap& faults);

// Throws ConfigError (key "collective.tree[id]", value "<node coords> <field>") if `tree` breaks
// a rule: exactly one root, a member without to_root; a down direction leading to a node that is
// not a member or whose to_root is not the opposite; a down direction along an earlier dimension
// than the up direction, other than straight on; a member whose parent does not list it; a
// member not reachable from the root (a cycle); a pe node that is not a member; dir_sum not the
// number of down directions; a non-member row that is not empty; id outside 0..15; one row per
// node.
void validate_tree(const Torus& torus, const Tree& tree);

}  // namespace angara
