#pragma once
// A software collective experiment ([workload] kind = "software"): the operation of the
// collective experiment (broadcast, reduce, allreduce, or allgather) done by the nodes' CPU
// programs with messages (collectives/software/software_collectives.h), repeated. Every node runs
// one program; operation k starts on every node at the cycle operation k-1 completed everywhere (a
// zero-cost gate of the harness, as the hardware experiment starts each operation when the one
// before has completed). Completion of an operation: from its start to the last cycle a
// participant finished its part. The inputs are the hardware experiment's (collective_inputs.h)
// and every participant's result is checked against a reference computed here.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"
#include "platform/experiments/run_record.h"
#include "platform/machine/progress.h"

namespace angara {

// What a software collective run measured.
struct SoftwareResult : RunRecord {
  int participants = 0;               // nodes taking part (tree members, destination; or all)
  NodeId root = 0;                    // the tree's root (tree algorithm), else the source
  std::vector<Cycle> completion;      // cycles, per operation
  std::uint64_t results_checked = 0;  // received results compared with the reference
  std::uint64_t messages = 0;         // messages delivered to hosts
  std::uint64_t results_digest = 0;   // FNV-1a 64 of the received results, op by op (as hardware)
};

// Elaborates and runs in this process (once per process, like run_experiment). Throws
// ConfigError for a config the software collectives cannot run, ModelError when a result differs
// from the reference (naming node, operation and word).
SoftwareResult run_software_experiment(const Config& config, const ProgressSink& progress = {});

// Its results file and its one-line summary.
nlohmann::ordered_json to_json(const SoftwareResult& result);
std::string summary_line(const SoftwareResult& result);

}  // namespace angara
