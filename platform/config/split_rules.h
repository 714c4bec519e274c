#pragma once
// What a run split over several MPI ranks can model, as rules on its config alone, so that both
// angara-sim and a sweep of such runs refuse a config before anything runs (docs/PARALLEL.md).

#include "models/core/ids.h"
#include "platform/config/config.h"

namespace angara {

// The fewest cycles after the cycle that made it that an effect of one router on another lands:
// the link's latency plus one flit.
Cycle lookahead(const Config& config);

// A ConfigError naming the key, for what a run over `ranks` ranks (> 1) does not model.
void check_splittable(const Config& config, int ranks);

}  // namespace angara
