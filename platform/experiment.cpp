#include "platform/experiment.h"

#include <fmt/format.h>
#include <chrono>
#include <memory>

#include "models/core/packet_ledger.h"
#include "platform/system.h"
#include "workloads/synthetic/traffic_measurement.h"
#include "workloads/synthetic/uniform_traffic.h"

namespace angara {
namespace {

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

// Runs the kernel in slices so that the watchdog and progress reports see the run as it goes.
class Runner {
 public:
  Runner(System& system, const SimParams& sim, const ProgressSink& progress)
      : m_system(system),
        m_sim(sim),
        m_progress(progress),
        m_slice(std::max<Cycle>(1, std::min<Cycle>(1000, sim.watchdog_cycles / 4))),
        m_start(WallClock::now()),
        m_last_report(m_start) {}

  Cycle now() const { return m_system.clock().now(); }

  // Runs until `done()` holds or cycle `limit` is reached (kNever: until the kernel is idle).
  template <typename Done>
  void run_until(Cycle limit, const char* phase, Done done) {
    while (!done() && now() < limit) {
      if (limit == kNever && !sc_core::sc_pending_activity()) {
        if (m_system.ledger().in_flight() > 0) deadlock("no event is pending");
        return;
      }
      const Cycle slice = std::min(m_slice, limit - now());
      sc_core::sc_start(m_system.clock().period() * static_cast<double>(slice));
      check_progress();
      report(phase);
    }
  }

 private:
  void check_progress() {
    const auto delivered = m_system.ledger().delivered_count();
    if (delivered != m_delivered || m_system.ledger().in_flight() == 0) {
      m_delivered = delivered;
      m_progress_at = now();
    } else if (now() - m_progress_at >= m_sim.watchdog_cycles) {
      deadlock(fmt::format("nothing delivered for {} cycles", now() - m_progress_at));
    }
  }

  [[noreturn]] void deadlock(const std::string& why) const {
    throw ModelError(fmt::format(
        "deadlock at cycle {}: {} with {} packets in flight; oldest blocked: {}", now(), why,
        m_system.ledger().in_flight(), m_system.oldest_blocked(now()).value_or("none")));
  }

  void report(const char* phase) {
    if (!m_sim.progress || !m_progress || seconds_since(m_last_report) < 2.0) return;
    m_last_report = WallClock::now();
    m_progress(
        fmt::format("[{:.0f} s] {} cycle {}: {} packets delivered, {} in flight, {} "
                    "queued at sources",
                    seconds_since(m_start), phase, now(), m_system.ledger().delivered_count(),
                    m_system.ledger().in_flight(), m_system.queued_at_sources()));
  }

  System& m_system;
  const SimParams& m_sim;
  const ProgressSink& m_progress;
  Cycle m_slice;
  WallClock::time_point m_start, m_last_report;
  std::uint64_t m_delivered = 0;
  Cycle m_progress_at = 0;
};

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
  Runner runner(system, sim, progress);

  runner.run_until(window_end, "measure", [] { return false; });
  auto measured_arrived = [&] { return measurement.measured_outstanding() == 0; };
  runner.run_until(window_end + sim.drain_cycles, "drain", measured_arrived);
  const bool drain_complete = measured_arrived();
  const Cycle stopped_at = runner.now();
  system.stop_creating();
  runner.run_until(kNever, "flush", [] { return false; });

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
  return r;
}

}  // namespace angara
