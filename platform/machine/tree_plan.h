#pragma once
// The collective subnet's trees of a config, planned in this one place for the machine (System)
// and the experiments that need them before it is built: collective.trees dimension-order trees,
// rooted where collective.roots says or spread evenly, transit nodes excluded, laid around failed
// links and nodes for every workload but synthetic traffic; then the trees of collective.tree,
// given row by row. Each is validated; a tree that cannot be laid is a ConfigError naming the key.

#include <vector>

#include "collectives/subnet/tree.h"
#include "models/topology/torus.h"
#include "platform/config/config.h"

namespace angara {

std::vector<Tree> plan_trees(const Config& config, const Torus& torus);

}  // namespace angara
