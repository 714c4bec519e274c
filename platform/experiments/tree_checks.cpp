#include "platform/experiments/tree_checks.h"

#include <fmt/format.h>

#include "models/core/config_error.h"

namespace angara {

void check_processors(const Config& config, const Tree& tree, const Torus& torus) {
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    if (tree.rows[n].member && tree.rows[n].pe) return;
  }
  const bool given = config.collective.transit.empty();
  throw ConfigError(given ? fmt::format("collective.tree (id {})", tree.id) : "collective.transit",
                    given ? "(rows)" : fmt::format("{} nodes", config.collective.transit.size()),
                    fmt::format("tree {} has no processor taking part (every member is a transit "
                                "node): an operation on it would send nothing",
                                tree.id));
}

void check_every_node_takes_part(const Config& config, const TreeSet& trees, const Torus& torus,
                                 const std::string& what, int first_tree, int last_tree) {
  for (int t = first_tree; t <= last_tree; ++t) {
    if (trees[t] == nullptr) continue;
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      if (trees[t]->rows[n].member && trees[t]->rows[n].pe) continue;
      const bool transit = !config.collective.transit.empty();
      throw ConfigError(transit ? "collective.transit" : fmt::format("collective.tree (id {})", t),
                        torus.format(n),
                        fmt::format("{} runs a rank on every node, each taking part in the "
                                    "collectives: tree {} must have every node as a processor "
                                    "(no transit nodes)",
                                    what, t));
    }
  }
}

}  // namespace angara
