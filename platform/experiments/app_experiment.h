#pragma once
// An application experiment ([workload] kind = "spmv" or "heat"): every node runs the
// application's program (workloads/apps/app_programs.h) for workload.repetitions iterations,
// all starting at cycle 0. The time of iteration i is the cycle the last node finished it minus
// the cycle the last node finished iteration i-1 (0 before the first); the performance is the
// application's flops per iteration over the mean iteration time.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"
#include "platform/experiments/run_record.h"
#include "platform/machine/progress.h"

namespace angara {

// What an application run measured.
struct AppResult : RunRecord {
  std::vector<Cycle> iteration;    // cycles, per iteration
  double flops_per_iteration = 0;  // of the whole application
  Cycle compute = 0;               // cycles, per iteration, of the busiest node
  double collective_mean = 0;  // cycles in the allgather/allreduce, mean over nodes and iterations
  Cycle collective_max = 0;    // ... the longest one
  int px = 0, py = 0;          // heat: the process grid
  std::uint64_t messages = 0;  // messages delivered to hosts

  double mean_iteration() const;  // cycles
};

// Elaborates and runs in this process (once per process, like run_experiment).
AppResult run_app_experiment(const Config& config, const ProgressSink& progress = {});

// Its results file (times in microseconds, performance in GFlop/s: the units of the spec's
// experiments) and its one-line summary.
nlohmann::ordered_json to_json(const AppResult& result);
std::string summary_line(const AppResult& result);

}  // namespace angara
