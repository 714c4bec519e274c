#include "platform/experiments/app_experiment.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "platform/machine/node_machine.h"
#include "workloads/apps/app_programs.h"

namespace angara {

double AppResult::mean_iteration() const {
  if (iteration.empty()) return 0;
  return static_cast<double>(std::accumulate(iteration.begin(), iteration.end(), Cycle{0})) /
         static_cast<double>(iteration.size());
}

AppResult run_app_experiment(const Config& config, const ProgressSink& progress) {
  config.validate();
  const auto wall_start = std::chrono::steady_clock::now();
  const int iterations = config.workload.repetitions;
  NodeMachine machine(config);
  const int nodes = machine.nodes();
  AppLog log(static_cast<std::size_t>(nodes),
             std::vector<IterationRecord>(static_cast<std::size_t>(iterations)));
  AppResult r;
  const bool heat = config.workload.kind == WorkloadKind::Heat;
  const HeatGrid grid(config.app.grid, nodes);
  std::vector<std::int64_t> expected_max(static_cast<std::size_t>(iterations));
  if (heat) {
    for (int k = 0; k < iterations; ++k) {
      std::int64_t m = heat_sigma(0, k);
      for (NodeId n = 1; n < static_cast<NodeId>(nodes); ++n) m = std::max(m, heat_sigma(n, k));
      expected_max[k] = m;
    }
    r.px = grid.px;
    r.py = grid.py;
    r.flops_per_iteration = static_cast<double>(config.app.grid[0]) * config.app.grid[1] *
                            config.app.flops_per_cell;
  } else {
    r.flops_per_iteration =
        2.0 * config.app.nonzeros_per_row * static_cast<double>(config.app.rows);
  }
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    const NodeContext ctx{n, machine.host(n), nodes, machine.torus(), machine.system().trees(),
                          config};
    machine.load(n, heat ? heat_program(ctx, grid, expected_max, log) : spmv_program(ctx, log));
  }
  machine.run(progress);

  r.config = config;
  r.nodes = nodes;
  Cycle previous = 0;
  double collective_sum = 0;
  for (int k = 0; k < iterations; ++k) {
    Cycle end = 0;
    for (const auto& node : log) {
      end = std::max(end, node[k].end);
      r.compute = std::max(r.compute, node[k].compute);
      r.collective_max = std::max(r.collective_max, node[k].collective);
      collective_sum += static_cast<double>(node[k].collective);
    }
    r.iteration.push_back(end - previous);
    previous = end;
  }
  r.collective_mean = collective_sum / (static_cast<double>(nodes) * iterations);
  r.messages = machine.messages_delivered();
  r.sim_cycles = machine.now();
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace angara
