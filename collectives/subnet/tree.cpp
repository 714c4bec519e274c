#include "collectives/subnet/tree.h"

#include "models/core/packet_ledger.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <deque>
#include <string>

#include "models/core/config_error.h"

namespace angara {
namespace {

std::string tree_key(int id) {
  return fmt::format("collective.tree[{}]", id);
}

[[noreturn]] void fail(const Torus& torus, const Tree& tree, NodeId node, const char* field,
                       const std::string& rule) {
  throw ConfigError(tree_key(tree.id), fmt::format("{} {}", torus.format(node), field), rule);
}

std::string direction_or_none(const std::optional<Direction>& d) {
  return d ? d->name() : std::string("none");
}

}  // namespace

std::vector<Direction> TreeRow::down() const {
  std::vector<Direction> out;
  for (int i = 0; i < 2 * kMaxDims; ++i) {
    if (((dirs >> i) & 1U) != 0) out.push_back(Direction::from_index(i));
  }
  return out;
}

int Tree::pe_count() const {
  return static_cast<int>(
      std::count_if(rows.begin(), rows.end(), [](const TreeRow& r) { return r.member && r.pe; }));
}

namespace {

void check_tree_args(const Torus& torus, int id, NodeId root, const std::vector<bool>& pe) {
  const int nodes = torus.node_count();
  if (id < 0 || id >= kMaxTrees) {
    throw ConfigError(tree_key(id), fmt::format("id {}", id),
                      fmt::format("a tree id must be in 0..{}", kMaxTrees - 1));
  }
  if (root >= static_cast<NodeId>(nodes)) {
    throw ConfigError(tree_key(id), fmt::format("root {}", root),
                      fmt::format("the root must be a node of the torus (0..{})", nodes - 1));
  }
  if (!pe.empty() && pe.size() != static_cast<std::size_t>(nodes)) {
    throw ConfigError(tree_key(id), fmt::format("{} pe entries", pe.size()),
                      fmt::format("pe needs one entry per node ({}) or none", nodes));
  }
}

// The tree from every node's up direction and depth (hops from the root; `up` of an unreachable
// node is empty, and its processor must not take part), pruned: a node stays if its processor
// takes part, it is the root, or a child stays. Children are one hop deeper than their parent, so
// deepest first settles every child before its parent.
Tree tree_of(const Torus& torus, int id, NodeId root, const std::vector<bool>& pe,
             const std::vector<std::optional<Direction>>& up, const std::vector<int>& depth) {
  const int nodes = torus.node_count();
  std::vector<NodeId> order(static_cast<std::size_t>(nodes));
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) order[n] = n;
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return depth[a] > depth[b]; });

  Tree tree;
  tree.id = id;
  tree.root = root;
  tree.rows.resize(static_cast<std::size_t>(nodes));
  for (NodeId n : order) {
    TreeRow& row = tree.rows[n];
    row.pe = pe.empty() || pe[n];
    row.member = row.member || row.pe || n == root;  // member already set: a child stays
    if (!row.member) {
      row.pe = false;
      continue;
    }
    row.is_root = n == root;
    row.to_root = up[n];
    if (n == root) continue;
    TreeRow& parent = tree.rows[torus.neighbor(n, *up[n])];
    parent.member = true;
    parent.dirs = static_cast<std::uint8_t>(parent.dirs | (1U << up[n]->opposite().index()));
    ++parent.dir_sum;
  }
  return tree;
}

}  // namespace

Tree build_dimension_order_tree(const Torus& torus, int id, NodeId root,
                                const std::vector<bool>& pe) {
  check_tree_args(torus, id, root, pe);
  const int nodes = torus.node_count();
  // Up direction of every node: along the last dimension in which it differs from the root,
  // one step back toward it. ring_offset keeps the side of each offset consistent between a node
  // and its parent, so the same rule read from the parent gives its down directions.
  const Coords& at_root = torus.coords(root);
  std::vector<std::optional<Direction>> up(static_cast<std::size_t>(nodes));
  std::vector<int> depth(static_cast<std::size_t>(nodes), 0);
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    const Coords& c = torus.coords(n);
    for (int d = 0; d < torus.dims(); ++d) {
      const int offset = torus.ring_offset(at_root[d], c[d], d);
      if (offset != 0) up[n] = Direction{d, offset > 0};
      depth[n] += std::abs(offset);
    }
  }
  return tree_of(torus, id, root, pe, up, depth);
}

std::optional<Tree> build_tree_around_failures(const Torus& torus, int id, NodeId root,
                                               const std::vector<bool>& pe,
                                               const FaultMap& faults) {
  check_tree_args(torus, id, root, pe);
  const int nodes = torus.node_count();
  if (faults.node_failed(root)) return std::nullopt;
  // Steps from `from` along `dir` while every hop is intact, at most `steps`: all of them or not.
  const auto clear = [&](NodeId from, Direction dir, int steps) {
    for (int i = 0; i < steps; ++i, from = torus.neighbor(from, dir)) {
      if (faults.hop_failed(from, dir)) return false;
    }
    return true;
  };
  const Coords& at_root = torus.coords(root);
  std::vector<std::optional<Direction>> up(static_cast<std::size_t>(nodes));
  std::vector<int> depth(static_cast<std::size_t>(nodes), 0);
  std::vector<bool> own_pe(static_cast<std::size_t>(nodes));
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    own_pe[n] = (pe.empty() || pe[n]) && !faults.node_failed(n);
    const Coords& c = torus.coords(n);
    Coords at = at_root;  // where the path is: n's coordinates so far, the root's after
    bool reached = true;
    for (int d = 0; d < torus.dims() && reached; ++d) {
      const int offset = torus.ring_offset(at_root[d], c[d], d);
      if (offset == 0) continue;
      const int k = torus.size(d);
      const int forward = offset > 0 ? offset : offset + k;  // steps the positive way
      const NodeId entry = torus.node(at);
      const bool plus = clear(entry, Direction{d, false}, forward);
      const bool minus = clear(entry, Direction{d, true}, k - forward);
      // The minimal way when both are clear (as build_dimension_order_tree), else the clear one.
      const bool go_plus = plus && (offset > 0 || !minus);
      if (!plus && !minus) reached = false;
      up[n] = Direction{d, go_plus};
      depth[n] += go_plus ? forward : k - forward;
      at[d] = c[d];
    }
    if (!reached) {
      if (own_pe[n]) return std::nullopt;
      up[n].reset();
      depth[n] = 0;
    }
  }
  return tree_of(torus, id, root, own_pe, up, depth);
}
void validate_tree(const Torus& torus, const Tree& tree) {
  const int nodes = torus.node_count();
  if (tree.id < 0 || tree.id >= kMaxTrees) {
    throw ConfigError(tree_key(tree.id), fmt::format("id {}", tree.id),
                      fmt::format("a tree id must be in 0..{}", kMaxTrees - 1));
  }
  if (tree.rows.size() != static_cast<std::size_t>(nodes)) {
    throw ConfigError(tree_key(tree.id), fmt::format("{} rows", tree.rows.size()),
                      fmt::format("the table needs one row per node ({})", nodes));
  }
  if (tree.root >= static_cast<NodeId>(nodes)) {
    throw ConfigError(tree_key(tree.id), fmt::format("root {}", tree.root),
                      fmt::format("the root must be a node of the torus (0..{})", nodes - 1));
  }
  const auto node_count = static_cast<NodeId>(nodes);
  const unsigned valid_dirs = (1U << torus.direction_count()) - 1;

  // Each row on its own: non-members empty, fields within the torus, dir_sum consistent.
  for (NodeId n = 0; n < node_count; ++n) {
    const TreeRow& row = tree.rows[n];
    if (!row.member) {
      if (row.pe) fail(torus, tree, n, "pe", "a pe node must be a member of the tree");
      if (row.is_root) fail(torus, tree, n, "is_root", "the root must be a member of the tree");
      if (row.to_root || row.dirs != 0 || row.dir_sum != 0) {
        fail(torus, tree, n, "member",
             "a node that is not a member must have an empty row (no to_root, dirs, dir_sum)");
      }
      continue;
    }
    if ((row.dirs & ~valid_dirs) != 0) {
      fail(torus, tree, n, "dirs",
           fmt::format("down directions must exist on a {}-dimensional torus", torus.dims()));
    }
    if (row.to_root && (row.to_root->dim < 0 || row.to_root->dim >= torus.dims())) {
      fail(torus, tree, n, "to_root",
           fmt::format("the up direction must exist on a {}-dimensional torus", torus.dims()));
    }
    if (row.dir_sum != std::popcount(static_cast<unsigned>(row.dirs))) {
      fail(torus, tree, n, "dir_sum",
           fmt::format("dir_sum {} must equal the number of down directions in dirs ({})",
                       row.dir_sum, std::popcount(static_cast<unsigned>(row.dirs))));
    }
    // A reduce waits for one packet from each child: a transit leaf would never send one.
    if (!row.pe && row.dirs == 0 && !row.is_root) {
      fail(torus, tree, n, "pe",
           "a transit node (pe = false) needs children: a leaf must be a pe node (make it pe or "
           "leave it out of the tree)");
    }
  }

  // Rule 1: exactly one root, the tree's own, without an up direction.
  std::vector<NodeId> roots;
  for (NodeId n = 0; n < node_count; ++n) {
    if (tree.rows[n].is_root) roots.push_back(n);
  }
  if (roots.empty()) {
    fail(torus, tree, tree.root, "is_root",
         "no node is marked is_root: a tree has exactly one root");
  }
  if (roots.size() > 1) {
    std::vector<std::string> names;
    names.reserve(roots.size());
    for (NodeId n : roots) names.push_back(torus.format(n));
    throw ConfigError(
        tree_key(tree.id), fmt::format("{} is_root", fmt::join(names, " ")),
        fmt::format("{} nodes are marked is_root: a tree has exactly one root", roots.size()));
  }
  if (roots.front() != tree.root) {
    fail(torus, tree, roots.front(), "is_root",
         fmt::format("the root row is here but the tree's root is {}", torus.format(tree.root)));
  }
  if (tree.rows[tree.root].to_root) {
    fail(torus, tree, tree.root, "to_root",
         fmt::format("the root has no up direction, found {}",
                     tree.rows[tree.root].to_root->name()));
  }
  for (NodeId n = 0; n < node_count; ++n) {
    const TreeRow& row = tree.rows[n];
    if (row.member && !row.is_root && !row.to_root) {
      fail(torus, tree, n, "to_root",
           "every member but the root needs an up direction, else it is not reachable from the "
           "root");
    }
  }

  // Rules 3 and 2, for every down direction of every member.
  for (NodeId n = 0; n < node_count; ++n) {
    const TreeRow& row = tree.rows[n];
    if (!row.member) continue;
    for (Direction d : row.down()) {
      if (!row.is_root && d.dim <= row.to_root->dim && d != row.to_root->opposite()) {
        fail(torus, tree, n, "dirs",
             fmt::format("down direction {} is along a dimension not after the up direction {}: "
                         "down directions must follow it in the order X, Y, Z, W or go straight "
                         "on ({})",
                         d.name(), row.to_root->name(), row.to_root->opposite().name()));
      }
      const NodeId child = torus.neighbor(n, d);
      const TreeRow& below = tree.rows[child];
      if (!below.member) {
        fail(torus, tree, n, "dirs",
             fmt::format("down direction {} leads to {}, which is not a member of the tree",
                         d.name(), torus.format(child)));
      }
      if (below.to_root != d.opposite()) {
        fail(torus, tree, n, "dirs",
             fmt::format("down direction {} leads to {}, whose to_root is {}, not the opposite "
                         "direction {}",
                         d.name(), torus.format(child), direction_or_none(below.to_root),
                         d.opposite().name()));
      }
    }
  }

  // Rule 4, the converse of rule 2: a member's parent lists it as a down direction.
  for (NodeId n = 0; n < node_count; ++n) {
    const TreeRow& row = tree.rows[n];
    if (!row.member || row.is_root) continue;
    const NodeId parent = torus.neighbor(n, *row.to_root);
    const TreeRow& above = tree.rows[parent];
    if (!above.member || !above.has_dir(row.to_root->opposite())) {
      fail(torus, tree, n, "to_root",
           fmt::format("to_root {} leads to {}, which {}: the node is not reachable from the root",
                       row.to_root->name(), torus.format(parent),
                       above.member ? fmt::format("does not list {} among its down directions",
                                                  row.to_root->opposite().name())
                                    : std::string("is not a member of the tree")));
    }
  }

  // Rule 5: every member is reached from the root by down directions, exactly once. After rules
  // 2 and 4 every member has exactly one parent, so a member left unreached sits on or below a
  // cycle of to_root links.
  std::vector<bool> reached(static_cast<std::size_t>(nodes), false);
  std::deque<NodeId> queue{tree.root};
  reached[tree.root] = true;
  while (!queue.empty()) {
    const NodeId here = queue.front();
    queue.pop_front();
    for (Direction d : tree.rows[here].down()) {
      const NodeId child = torus.neighbor(here, d);
      if (reached[child]) {
        fail(torus, tree, child, "to_root",
             "reached twice from the root by down directions: the tree has a cycle");
      }
      reached[child] = true;
      queue.push_back(child);
    }
  }
  for (NodeId n = 0; n < node_count; ++n) {
    if (!tree.rows[n].member || reached[n]) continue;
    // Walk up until a node repeats: that node lies on the cycle.
    std::vector<bool> seen(static_cast<std::size_t>(nodes), false);
    NodeId at = n;
    while (!seen[at] && tree.rows[at].to_root) {
      seen[at] = true;
      at = torus.neighbor(at, *tree.rows[at].to_root);
    }
    fail(torus, tree, n, "to_root",
         fmt::format("not reachable from the root by down directions: following to_root from "
                     "here runs into a cycle through {} and never reaches the root",
                     torus.format(at)));
  }
}

const TreeRow& member_row(const TreeSet& trees, NodeId node, int tree) {
  const Tree* t = trees.at(static_cast<std::size_t>(tree));
  if (!t || !t->rows.at(node).member) {
    throw ModelError(fmt::format("node {}: collective packet on tree {}, which this node is not in",
                                 node, tree));
  }
  return t->rows[node];
}

}  // namespace angara
