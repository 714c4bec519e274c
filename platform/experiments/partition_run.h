#pragma once
// A re-cabled machine's partitions ([[partition]]) run one after another, each as the standalone
// torus it is cabled into, and their results gathered into one results file.

#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/progress.h"

namespace angara {

// Runs every partition of `config` (config.partitions is not empty) with its own workload and
// seed: partition i runs exactly Config::partition_config(i), the run `angara-sim config
// --partition i` prints. The results file holds each partition's results as its standalone run
// writes them, under "partitions", and the machine's totals.
//
// Why a process per partition: re-cabled partitions share no router, link, endpoint or node, so
// nothing that happens in one can change another; a SystemC kernel elaborates once per process,
// so each partition's torus is elaborated and run in a child process of its own (child_run.h,
// forked before anything is elaborated here) that hands its results back through a pipe. A
// partition's packets exist only in its own kernel, whose routers are the box's: none can reach
// another partition. A model failure in a partition is a ModelError naming it, and nothing is
// written.
RunOutput run_partitions(const Config& config, const ProgressSink& progress);
// The extension partition `index`'s side file of `extension` takes beside the results JSON.
std::string partition_side_extension(std::size_t index, const std::string& extension);

}  // namespace angara
