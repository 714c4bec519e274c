#pragma once
// What every experiment records beside its own results, and the skeleton every experiment runs
// in: the config validated, the wall clock started, the kind's own build and run, then the record
// filled in. A kind supplies only the middle.

#include <chrono>

#include "models/router/contention.h"
#include "platform/config/config.h"
#include "platform/machine/cut.h"

namespace angara {

// The part every result shares: what ran and how long it took.
struct RunRecord {
  Config config;            // as run
  int nodes = 0;            // routers of the torus (one node each)
  Cycle sim_cycles = 0;     // simulated, up to where the kind says its run ended
  double wall_seconds = 0;  // wall-clock time, elaboration included
  // Nodes whose source queue reached sim.source_queue_packets (their sources waited for room).
  int capped_sources = 0;
  SplitRecord split;             // over MPI ranks: the grid and what each rank's part cost
  ContentionSummary contention;  // how much the routers' copies waited (LT's verdict reads it)
};

// Runs one experiment whose result type `Result` is a RunRecord: validates `config` (throwing
// its ConfigError before anything is built), starts the wall clock, calls `body(result)`, which
// builds and runs the machine, fills in the kind's own fields and returns the simulated cycles,
// then records the config, the node count and the wall time.
template <typename Result, typename Body>
Result record_run(const Config& config, Body&& body) {
  config.validate();
  const auto start = std::chrono::steady_clock::now();
  Result result;
  result.sim_cycles = body(result);
  result.config = config;
  result.nodes = config.topology.node_count();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace angara
