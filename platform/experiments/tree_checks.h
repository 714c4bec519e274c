#pragma once
// Checks of the built trees that the config alone cannot make (the trees exist once the machine
// is built), made before the run so that a collective the model would fail on, or get wrong, is
// a ConfigError naming the key at fault instead of a SystemC error or a wrong answer.

#include <string>

#include "collectives/subnet/tree.h"
#include "models/topology/torus.h"
#include "platform/config/config.h"

namespace angara {

// An operation on `tree` needs at least one processor on it: with none nothing is ever sent.
void check_processors(const Config& config, const Tree& tree, const Torus& torus);

// Programs that run a rank on every node and bring every rank into a collective (`what`: "heat",
// "an allgather over the subnet") need every node as a processor of every tree in `trees`.
void check_every_node_takes_part(const Config& config, const TreeSet& trees, const Torus& torus,
                                 const std::string& what, int first_tree, int last_tree);

}  // namespace angara
