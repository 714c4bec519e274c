#pragma once
// A collective experiment ([workload] kind = "collective"): one operation on one tree, repeated,
// each started when the one before has completed (or all at once with workload.overlap), every
// delivery checked against the expected payload or reduction. Completion time of an operation:
// from its start to the last expected delivery's tail.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/rtl/rtl_stats.h"
#include "platform/config/config.h"
#include "platform/experiments/run_record.h"
#include "platform/machine/progress.h"

namespace angara {

// What a collective run measured.
struct CollectiveResult : RunRecord {
  int trees = 1;                         // trees the operation ran on at once
  int pe_nodes = 0;                      // processors taking part, summed over those trees
  NodeId root = 0;                       // the (first) tree's root
  std::vector<Cycle> completion;         // cycles, per operation
  std::uint64_t deliveries = 0;          // checked deliveries (copies, results)
  std::uint64_t background_packets = 0;  // point-to-point packets delivered beside them
  std::uint64_t results_digest = 0;      // FNV-1a 64 of the delivered results, op by op
  RtlReducerStats rtl;                   // what the RTL Reducers were checked on (rtl.reducer)
  RtlVcUpStats rtl_vcup;                 // what the RTL VCUps were checked on (rtl.vcup)
};

// Elaborates and runs in this process (once per process, like run_experiment).
CollectiveResult run_collective_experiment(const Config& config, const ProgressSink& progress = {});

// Its results file and its one-line summary.
nlohmann::ordered_json to_json(const CollectiveResult& result);
std::string summary_line(const CollectiveResult& result);

}  // namespace angara
