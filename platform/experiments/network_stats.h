#pragma once
// Network statistics of a run ([stats] network = true; docs/STATS.md): the routers' RouterStats
// gathered into a summary for the results JSON and three tables written beside it, per link
// (".links.csv"), per input VC (".vcs.csv") and per router (".routers.csv").

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/system.h"

namespace angara {

struct NetworkStats {
  nlohmann::ordered_json summary;
  std::vector<SideFile> files;
};

// The extensions of the tables `config` has written beside the results (none: statistics off).
std::vector<std::string> network_stats_extensions(const Config& config);

// Reads every router's statistics (call it once the network has drained). Plain LT has no
// buffers, so it has no VC occupancy: the summary says so and no ".vcs.csv" is written.
NetworkStats network_stats(const System& system, const Config& config);

}  // namespace angara
