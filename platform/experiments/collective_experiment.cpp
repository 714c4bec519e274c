#include "platform/experiments/collective_experiment.h"

#include <chrono>

#include <fmt/format.h>

#include "models/core/config_error.h"

#include "platform/experiments/results_json.h"
#include "platform/machine/sim_runner.h"
#include "platform/machine/system.h"
#include "workloads/collective/collective_workload.h"

namespace angara {

CollectiveResult run_collective_experiment(const Config& config, const ProgressSink& progress) {
  config.validate();
  const auto wall_start = std::chrono::steady_clock::now();
  const auto& wl = config.workload;

  const Torus torus(config.topology.dims);
  std::vector<CollectiveWorkload::Target> targets;
  for (Tree& tree : System::make_trees(config, torus)) {
    if (!wl.all_trees && tree.id != wl.tree) continue;
    const NodeId source = wl.source.empty() ? tree.root : System::node_at(torus, wl.source);
    const NodeId destination =
        wl.destination.empty() ? tree.root : System::node_at(torus, wl.destination);
    if (wl.op == CollectiveOp::Broadcast && !tree.rows[source].pe) {
      throw ConfigError("workload.source", torus.format(source),
                        fmt::format("a broadcast starts at a processor of tree {} (a member with "
                                    "pe), not at a transit node or outside it",
                                    tree.id));
    }
    targets.push_back({std::move(tree), source, destination});
  }
  const NodeId root = targets.front().tree.root;
  const int trees = static_cast<int>(targets.size());
  CollectiveWorkload workload(config, std::move(targets));
  System system(config, workload.make_sources(), workload);
  workload.set_waker([&system](NodeId n) { system.wake_endpoint(n); });

  // The watchdog sees collective deliveries and background packets alike.
  SimRunner runner(system, config.sim, progress,
                   {[&] { return workload.delivered_count() + system.ledger().delivered_count(); },
                    [&] {
                      std::uint64_t open = system.ledger().in_flight();
                      for (int k = 0; k < workload.operations(); ++k) open += !workload.complete(k);
                      return open;
                    }});
  auto all_done = [&] {
    for (int k = 0; k < workload.operations(); ++k) {
      if (!workload.complete(k)) return false;
    }
    return true;
  };
  for (int k = 0; k < wl.repetitions; ++k) {
    workload.start(k, runner.now());
    if (!wl.overlap) runner.run_until(kNever, "collective", all_done);
  }
  runner.run_until(kNever, "collective", all_done);
  // Background traffic stops with the last operation; what is in flight is delivered and counted.
  system.stop_creating();
  runner.run_until(kNever, "drain", [] { return false; });

  CollectiveResult r;
  r.config = config;
  r.nodes = config.topology.node_count();
  r.root = root;
  r.trees = trees;
  r.pe_nodes = workload.pe_nodes();
  for (int k = 0; k < workload.operations(); ++k)
    r.completion.push_back(workload.completion_cycles(k));
  r.deliveries = workload.delivered_count();
  r.background_packets = system.ledger().delivered_count();
  r.results_digest = workload.results_digest();
  r.sim_cycles = runner.now();
  if (system.tracing()) write_file(system.trace_vcd(), config.trace.file);
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace angara
