#pragma once
// One synthetic-traffic experiment, run to completion: warm-up, measurement, drain (injection
// goes on until every measured packet has arrived), then a flush with injection stopped until
// the network is empty, so the conservation ledger can account for every packet. A watchdog
// turns "nothing delivered for sim.watchdog_cycles with packets in flight" into a ModelError
// naming the router, port and VC of the oldest blocked packet.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/latency_stats.h"
#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/run_record.h"
#include "platform/machine/progress.h"

namespace angara {

// What a synthetic run measured.
struct ExperimentResult : RunRecord {
  std::uint64_t packets_delivered = 0;  // measured packets (created in the window)
  std::uint64_t packets_injected_total = 0;
  std::uint64_t packets_delivered_total = 0;
  LatencyStats latency;        // cycles, measured packets, creation to tail delivered
  LatencyStats probe_latency;  // the same for the probe pair's messages (traffic.probes)
  double offered_flits_per_node_cycle = 0;
  double accepted_flits_per_node_cycle = 0;
  double mean_hops = 0;
  std::uint64_t flit_hops = 0;  // flits x router-to-router links, whole run
  // Packets diverted around a link that failed during the run ([faults] fail_at_cycle).
  std::uint64_t packets_rerouted = 0;
  bool drain_complete = true;  // every measured packet arrived within sim.drain_cycles
  bool saturated = false;      // accepted < 90% of offered, or the drain did not complete
  bool drain_skipped = false;  // saturated when the window ended (sim.stop_when_saturated)
  // The window is shorter than the zero-load latency (Config::first_delivery_floor(), cycles):
  // few packets can arrive in it at any load, so accepted < offered says nothing of saturation.
  Cycle window_too_short_for = 0;  // that latency when so, else 0
  // sim_cycles: until injection stopped or the last packet arrived, if later
  // [stats] network = true: the summary (null when off); the tables beside the results: the
  // network's (network_stats.h) and the one over time (timeline_table.h).
  nlohmann::ordered_json network_stats;
  std::vector<SideFile> side_files;
};

// Elaborates and runs the experiment in this process. SystemC elaborates once per process: call
// it at most once (tests use regress/support/isolated.h to run each in a child process).
ExperimentResult run_experiment(const Config& config, const ProgressSink& progress = {});

// Its results file and its one-line summary.
nlohmann::ordered_json to_json(const ExperimentResult& result);
std::string summary_line(const ExperimentResult& result);
// The run as angara-sim writes it: the results, the summary and the statistics' tables.
RunOutput synthetic_output(const Config& config, const ProgressSink& progress);

}  // namespace angara
