#include "platform/machine/tree_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <utility>

#include "models/core/config_error.h"
#include "models/topology/faults.h"

namespace angara {

namespace {

// The first member of `tree` whose up hop crosses a failed link or reaches a failed node, if any
// (a failed node left in the tree would be a transit node, and it routes nothing).
std::optional<NodeId> over_failed_link(const Tree& tree, const FaultMap& faults) {
  for (NodeId n = 0; n < static_cast<NodeId>(tree.rows.size()); ++n) {
    const TreeRow& row = tree.rows[n];
    if (row.member && row.to_root && faults.hop_failed(n, *row.to_root)) return n;
  }
  return std::nullopt;
}

[[noreturn]] void refuse_tree(const std::string& key, const std::string& value, const Tree& tree,
                              NodeId at, const Torus& torus, const FaultMap& faults) {
  throw ConfigError(key, value,
                    fmt::format("tree {} goes up from {} over a failed link or to a failed "
                                "node, {}{} ({}): give it another root or fail other elements",
                                tree.id, torus.format(at), torus.format(at),
                                tree.rows[at].to_root->name(), faults.describe(torus)));
}

// A tree given row by row; the validator then checks it like any other. collective.transit
// applies to it as to every tree: a row's processor takes part only if both say so.
Tree tree_from_rows(const TreeSpec& spec, const TopologyParams& topology,
                    const std::vector<bool>& pe) {
  Tree tree;
  tree.id = spec.id;
  tree.rows.resize(static_cast<std::size_t>(topology.node_count()));
  for (const TreeRowSpec& r : spec.rows) {
    const NodeId n = topology.node_at(r.node);
    TreeRow& row = tree.rows[n];
    row.member = true;
    row.is_root = r.root;
    row.pe = r.pe && pe[n];
    // A leaf left without its processor would hold up every reduce: say which key made it so.
    if (r.pe && !pe[n] && r.dirs.empty() && !r.root) {
      throw ConfigError("collective.transit", fmt::format("[{}]", fmt::join(r.node, ", ")),
                        fmt::format("the node is a leaf of tree {} given row by row "
                                    "(collective.tree), and a transit node needs children: "
                                    "leave it out of the tree or of collective.transit",
                                    spec.id));
    }
    if (r.root) tree.root = n;
    if (Direction d; parse_direction(r.to_root, d)) row.to_root = d;
    for (Direction d : r.dirs) row.dirs |= static_cast<std::uint8_t>(1U << d.index());
    row.dir_sum = static_cast<int>(r.dirs.size());
  }
  return tree;
}

}  // namespace

std::vector<Tree> plan_trees(const Config& config, const Torus& torus) {
  const auto& c = config.collective;
  const int nodes = torus.node_count();
  std::vector<bool> pe(static_cast<std::size_t>(nodes), true);
  for (const auto& t : c.transit) pe[config.topology.node_at(t)] = false;
  // Synthetic traffic leaves the subnet idle; the other kinds' trees avoid failed links and nodes
  // (failed nodes take no part).
  const FaultMap faults = config.workload.kind == WorkloadKind::Synthetic
                              ? FaultMap()
                              : FaultMap(torus, config.faults, config.sim.seed);
  std::vector<Tree> trees;
  for (int id = 0; id < c.trees; ++id) {
    const bool given = id < static_cast<int>(c.roots.size());
    const NodeId root = given ? config.topology.node_at(c.roots[id])
                              : static_cast<NodeId>(static_cast<long long>(id) * nodes / c.trees);
    if (!faults.any()) {
      trees.push_back(build_dimension_order_tree(torus, id, root, pe));
      validate_tree(torus, trees.back());
      continue;
    }
    // Laid around the failures; a default root that is failed, or from which a live processor
    // cannot be reached, moves on node by node to the first that works.
    std::optional<Tree> tree = build_tree_around_failures(torus, id, root, pe, faults);
    for (int k = 1; !given && !tree && k < nodes; ++k) {
      tree = build_tree_around_failures(
          torus, id, static_cast<NodeId>((root + static_cast<NodeId>(k)) % nodes), pe, faults);
    }
    if (!tree) {
      throw ConfigError(
          given ? "collective.roots" : "collective.trees",
          given ? torus.format(root) : fmt::format("{}", c.trees),
          fmt::format("tree {} {} ({}): give it another root or fail other elements", id,
                      given && faults.node_failed(root) ? "has its root on a failed node"
                      : given ? "cannot reach every live processor from its root"
                              : "cannot reach every live processor from any root",
                      faults.describe(torus)));
    }
    trees.push_back(std::move(*tree));
    if (const auto at = over_failed_link(trees.back(), faults)) {
      refuse_tree(given ? "collective.roots" : "collective.trees",
                  given ? torus.format(root) : fmt::format("{}", c.trees), trees.back(), *at, torus,
                  faults);
    }
    validate_tree(torus, trees.back());
  }
  for (const TreeSpec& spec : c.tree) {
    trees.push_back(tree_from_rows(spec, config.topology, pe));
    validate_tree(torus, trees.back());
    if (const auto at = over_failed_link(trees.back(), faults)) {
      refuse_tree(fmt::format("collective.tree[{}]", spec.id), torus.format(*at), trees.back(), *at,
                  torus, faults);
    }
  }
  return trees;
}

}  // namespace angara
