#include "platform/experiments/experiment.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

#include "models/core/config_error.h"
#include "models/core/packet_ledger.h"
#include "platform/config/config_values.h"
#include "platform/experiments/network_stats.h"
#include "platform/experiments/over_ranks.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/timeline_table.h"
#include "platform/experiments/trace_files.h"
#include "platform/machine/sim_runner.h"
#include "platform/machine/system.h"
#include "workloads/synthetic/synthetic_traffic.h"
#include "workloads/synthetic/traffic_measurement.h"
#include "workloads/synthetic/traffic_timeline.h"

namespace angara {

namespace {

struct ProbePair {
  NodeId src = 0;
  ProbeSchedule schedule;
};

// A node [faults] failed sends and receives nothing: it can be neither end of the probe pair
// nor the hot spot.
void check_live(const Config& config, const FaultMap& faults) {
  const TrafficParams& t = config.traffic;
  const auto check = [&](const char* key, const std::vector<int>& coords, bool used) {
    if (used && !coords.empty() && faults.node_failed(config.topology.node_at(coords))) {
      throw ConfigError(key, fmt::format("[{}]", fmt::join(coords, ", ")),
                        "the node is failed ([faults]): it sends and receives nothing");
    }
  };
  // With fewer than two live nodes no packet is ever sent: a latency of 0 would be no measurement.
  if (faults.any() && faults.live_nodes() < 2) {
    const FaultParams& f = config.faults;
    throw ConfigError(
        f.random_nodes > 0 ? "faults.random_nodes" : "faults.nodes",
        f.random_nodes > 0 ? fmt::format("{}", f.random_nodes)
                           : fmt::format("{} nodes", f.nodes.size()),
        fmt::format("fails {} of the {} nodes: synthetic traffic needs at least two live nodes, "
                    "or nothing is sent and nothing measured",
                    faults.failed_nodes().size(), config.topology.node_count()));
  }
  check("traffic.probe_src", t.probe_src, t.probes > 0);
  check("traffic.probe_dst", t.probe_dst, t.probes > 0);
  check("traffic.hotspot_node", t.hotspot_node, t.pattern == TrafficPattern::Hotspot);
}

// traffic.probes messages, one in the middle of each equal part of the measurement window.
ProbePair probe_pair(const Config& config) {
  const TrafficParams& t = config.traffic;
  if (t.probes == 0) return {};
  ProbePair pair{config.topology.node_at(t.probe_src), {config.topology.node_at(t.probe_dst), {}}};
  const auto parts = static_cast<Cycle>(t.probes);
  for (Cycle i = 0; i < parts; ++i) {
    pair.schedule.cycles.push_back(config.sim.warmup_cycles +
                                   (2 * i + 1) * config.sim.measure_cycles / (2 * parts));
  }
  return pair;
}

// [stats]: ", link utilisation mean 0.120 max 0.500 (+X of (1,0,2))", or nothing when off.
std::string link_summary(const nlohmann::ordered_json& stats) {
  if (stats.is_null() || !stats.contains("busiest_link")) return {};
  const auto& busiest = stats["busiest_link"];
  return fmt::format(", link utilisation mean {:.3f} max {:.3f} ({} of {})",
                     stats["link_utilisation"]["mean"].get<double>(),
                     stats["link_utilisation"]["max"].get<double>(),
                     busiest["port"].get<std::string>(), busiest["router"].get<std::string>());
}

// " (SATURATED)", why the offered load is undercounted if sources waited, and that the run ended
// with its window when it did.
std::string saturated_note(const ExperimentResult& r) {
  std::string why;
  if (r.capped_sources > 0) why = capped_note(r) + ", so offered load is undercounted";
  if (r.drain_skipped) {
    why += (why.empty() ? "" : "; ") +
           std::string("saturated when the window ended, so no drain: sim.stop_when_saturated");
  }
  return why.empty() ? " (SATURATED)" : " (SATURATED: " + why + ")";
}

// Why saturation was not judged, or nothing.
std::string window_note(const ExperimentResult& r) {
  if (r.window_too_short_for == 0) return {};
  return fmt::format(
      " (sim.measure_cycles = {} is shorter than the zero-load latency, {} cycles: "
      "too short to judge saturation)",
      r.config.sim.measure_cycles, r.window_too_short_for);
}

}  // namespace

ExperimentResult run_experiment(const Config& config, const ProgressSink& progress) {
  return record_run<ExperimentResult>(config, [&](ExperimentResult& r) {
    const SimParams& sim = config.sim;
    const Cycle window_end = sim.warmup_cycles + sim.measure_cycles;
    const int nodes = config.topology.node_count();

    TrafficMeasurement measurement(sim.warmup_cycles, window_end);
    TrafficTimeline timeline(std::max<Cycle>(config.stats.interval_cycles, 1));
    ObserverPair both(measurement, timeline);
    const bool over_time = config.stats.interval_cycles > 0;
    const Topology topology(config.topology);
    const FaultMap faults =
        topology.torus() ? FaultMap(*topology.torus(), config.faults, sim.seed) : FaultMap();
    check_live(config, faults);
    const Destinations destinations(topology, config.traffic, sim.seed, faults);
    const ProbePair probes = probe_pair(config);
    // Split over ranks, the nodes of this rank's box only.
    const std::vector<bool> here = topology.torus()
                                       ? local_nodes(*topology.torus(), Ranks::world())
                                       : std::vector<bool>(static_cast<std::size_t>(nodes), true);
    std::vector<std::unique_ptr<TrafficSource>> sources(static_cast<std::size_t>(nodes));
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      if (!here[n]) continue;
      sources[n] =
          std::make_unique<SyntheticTraffic>(n, destinations, config.traffic, sim.seed,
                                             n == probes.src ? probes.schedule : ProbeSchedule{});
    }
    System system(config, std::move(sources),
                  over_time ? static_cast<TrafficObserver&>(both) : measurement);
    const PacketLedger& ledger = system.ledger();
    const Ranks& ranks = system.ranks();  // split over ranks, each counts its own nodes' part
    return run_traced(system, config.trace, [&] {
      SimRunner runner(
          system, sim, progress,
          {[&] { return ledger.delivered_count(); }, [&] { return ledger.in_flight(); }});

      runner.plan(window_end);
      const auto never = [] { return false; };
      runner.run_until(window_end, "measure", never);
      // When the window ends what it offered and accepted is known, and with it a saturated run's
      // verdict, which no drain can change: such a run skips it (sim.stop_when_saturated).
      const auto judge = [&] {
        using Counts = TrafficMeasurement::Counts;
        const Counts counts =
            sum_fields(measurement.counts(), ranks,
                       std::array{&Counts::created, &Counts::probes_created, &Counts::offered_flits,
                                  &Counts::accepted_flits, &Counts::packets, &Counts::hops});
        const double node_cycles =
            static_cast<double>(nodes) * static_cast<double>(sim.measure_cycles);
        r.offered_flits_per_node_cycle = static_cast<double>(counts.offered_flits) / node_cycles;
        r.accepted_flits_per_node_cycle = static_cast<double>(counts.accepted_flits) / node_cycles;
        r.mean_hops = mean_hops(counts);
        r.capped_sources =
            static_cast<int>(ranks.sum(static_cast<std::uint64_t>(system.capped_sources())));
        return r.capped_sources > 0 ||
               (r.window_too_short_for == 0 &&
                r.accepted_flits_per_node_cycle < 0.9 * r.offered_flits_per_node_cycle);
      };
      if (const Cycle floor = config.first_delivery_floor(); sim.measure_cycles < floor) {
        r.window_too_short_for = floor;
      }
      r.drain_skipped = sim.stop_when_saturated && judge();
      auto measured_arrived = [&] { return ranks.sum(measurement.measured_outstanding()) == 0; };
      if (!r.drain_skipped) {
        runner.run_until(window_end + sim.drain_cycles, "drain", measured_arrived);
      }
      r.drain_complete = measured_arrived();
      const Cycle stopped_at = runner.now();
      system.stop_creating();
      runner.run_until(kNever, r.drain_skipped ? "saturated: flush" : "flush", never);
      system.check_conservation();
      r.split = runner.split_record();
      r.contention = system.contention();

      r.latency = gather_samples(measurement.latency(), ranks);
      r.probe_latency = gather_samples(measurement.probe_latency(), ranks);
      r.packets_delivered = r.latency.count();
      r.packets_injected_total = ranks.sum(ledger.injected_count());
      r.packets_delivered_total = ranks.sum(ledger.delivered_count());
      r.flit_hops = ranks.sum(system.flit_hops());
      std::uint64_t rerouted = 0;
      for (const RouterCore* router : system.routers()) rerouted += router->rerouted();
      r.packets_rerouted = ranks.sum(rerouted);
      r.saturated = judge() || !r.drain_complete || r.drain_skipped;
      if (config.stats.network) {  // read once the network is empty: every packet has left
        NetworkStats stats = network_stats(system, config);
        r.network_stats = std::move(stats.summary);
        r.side_files = std::move(stats.files);
      }
      const Cycle end = std::max(stopped_at, ranks.max(ledger.last_delivery()));
      if (over_time) {
        if (auto table = timeline_table(timeline, config, end, ranks)) {
          r.side_files.push_back(std::move(*table));
        }
      }
      return end;
    });
  });
}

nlohmann::ordered_json to_json(const ExperimentResult& r) {
  const double ns = r.config.router.cycle_ns();
  const auto& lat = r.latency;
  nlohmann::ordered_json histogram = nlohmann::ordered_json::array();
  for (const auto& bin : lat.histogram(32)) {
    histogram.push_back({{"lo", bin.lo}, {"hi", bin.hi}, {"count", bin.count}});
  }
  nlohmann::ordered_json j;
  j["nodes"] = r.nodes;
  j["packets_delivered"] = r.packets_delivered;
  j["packets_injected_total"] = r.packets_injected_total;
  j["packets_delivered_total"] = r.packets_delivered_total;
  j["latency_cycles"] = {
      {"mean", lat.mean()}, {"p50", lat.percentile(0.5)}, {"p99", lat.percentile(0.99)},
      {"min", lat.min()},   {"max", lat.max()},           {"histogram", histogram}};
  j["latency_ns"] = {{"mean", lat.mean() * ns},
                     {"p50", static_cast<double>(lat.percentile(0.5)) * ns},
                     {"p99", static_cast<double>(lat.percentile(0.99)) * ns}};
  if (r.config.traffic.probes > 0) {
    const auto& probe = r.probe_latency;
    j["probe_latency_cycles"] = {{"count", probe.count()},       {"mean", probe.mean()},
                                 {"p50", probe.percentile(0.5)}, {"p99", probe.percentile(0.99)},
                                 {"min", probe.min()},           {"max", probe.max()}};
    j["probe_latency_ns"] = {{"mean", probe.mean() * ns}};
  }
  j["offered_flits_per_node_cycle"] = r.offered_flits_per_node_cycle;
  j["accepted_flits_per_node_cycle"] = r.accepted_flits_per_node_cycle;
  j["saturated"] = r.saturated;
  if (r.window_too_short_for > 0) j["window_shorter_than_latency_cycles"] = r.window_too_short_for;
  j["drain_complete"] = r.drain_complete;
  if (r.drain_skipped) j["drain_skipped"] = true;
  j["mean_hops"] = r.mean_hops;
  j["flit_hops"] = r.flit_hops;
  if (r.config.faults.fail_at_cycle > 0) j["packets_rerouted"] = r.packets_rerouted;
  if (!r.network_stats.is_null()) j["network_stats"] = r.network_stats;
  add_run(j, r);
  return j;
}

std::string summary_line(const ExperimentResult& r) {
  const auto& lat = r.latency;
  return with_wall_time(
      r,
      fmt::format("{}, {} {:.3f} flits/node/cycle: accepted {:.3f}, latency mean {:.1f} p50 "
                  "{} p99 {} cycles ({:.1f} ns mean), {} messages measured{}, {} cycles",
                  torus_name(r.config),
                  config_values::json_value(r.config.traffic.pattern).get<std::string>(),
                  r.offered_flits_per_node_cycle, r.accepted_flits_per_node_cycle, lat.mean(),
                  lat.percentile(0.5), lat.percentile(0.99),
                  lat.mean() * r.config.router.cycle_ns(), r.packets_delivered,
                  r.saturated ? saturated_note(r) : window_note(r), r.sim_cycles) +
          link_summary(r.network_stats),
      " in ");
}

RunOutput synthetic_output(const Config& config, const ProgressSink& progress) {
  ExperimentResult r = run_experiment(config, progress);
  return {to_json(r), summary_line(r), std::move(r.side_files)};
}

}  // namespace angara
