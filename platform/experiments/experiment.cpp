#include "platform/experiments/experiment.h"

#include <fmt/format.h>
#include <chrono>
#include <memory>

#include "models/core/packet_ledger.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/sim_runner.h"
#include "platform/machine/system.h"
#include "workloads/synthetic/traffic_measurement.h"
#include "workloads/synthetic/uniform_traffic.h"

namespace angara {
namespace {

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

}  // namespace

ExperimentResult run_experiment(const Config& config, const ProgressSink& progress) {
  config.validate();
  const auto wall_start = WallClock::now();
  const SimParams& sim = config.sim;
  const Cycle window_end = sim.warmup_cycles + sim.measure_cycles;
  const int nodes = config.topology.node_count();

  TrafficMeasurement measurement(sim.warmup_cycles, window_end);
  std::vector<std::unique_ptr<TrafficSource>> sources;
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    sources.push_back(std::make_unique<UniformTraffic>(n, nodes, config.traffic, sim.seed));
  }
  System system(config, std::move(sources), measurement);
  SimRunner runner(system, sim, progress,
                   {[&] { return system.ledger().delivered_count(); },
                    [&] { return system.ledger().in_flight(); }});

  const auto never = [] { return false; };
  runner.run_until(window_end, "measure", never);
  auto measured_arrived = [&] { return measurement.measured_outstanding() == 0; };
  runner.run_until(window_end + sim.drain_cycles, "drain", measured_arrived);
  const bool drain_complete = measured_arrived();
  const Cycle stopped_at = runner.now();
  system.stop_creating();
  runner.run_until(kNever, "flush", never);

  ExperimentResult r;
  r.config = config;
  r.nodes = nodes;
  r.packets_delivered = measurement.latency().count();
  r.packets_injected_total = system.ledger().injected_count();
  r.packets_delivered_total = system.ledger().delivered_count();
  r.latency = measurement.latency();
  const double node_cycles = static_cast<double>(nodes) * static_cast<double>(sim.measure_cycles);
  r.offered_flits_per_node_cycle = static_cast<double>(measurement.offered_flits()) / node_cycles;
  r.accepted_flits_per_node_cycle = static_cast<double>(measurement.accepted_flits()) / node_cycles;
  r.mean_hops = measurement.mean_hops();
  r.flit_hops = system.flit_hops();
  r.drain_complete = drain_complete;
  r.saturated =
      !drain_complete || r.accepted_flits_per_node_cycle < 0.9 * r.offered_flits_per_node_cycle;
  r.sim_cycles = std::max(stopped_at, system.ledger().last_delivery());
  r.wall_seconds = seconds_since(wall_start);
  if (system.tracing()) write_file(system.trace_vcd(), config.trace.file);
  return r;
}

}  // namespace angara
