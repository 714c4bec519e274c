#pragma once
// The message tests as experiments ([workload] kind = "msgrate" or "pingpong"): rank 0 on node 0,
// rank 1 on workload.peer (node 0's +X neighbour by default), one point per message size.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/run_record.h"
#include "platform/machine/progress.h"
#include "workloads/node/message_benchmarks.h"

namespace angara {

// What a message test measured.
struct MessageBenchResult : RunRecord {
  NodeId peer = 0;
  int hops = 0;  // router-to-router hops between the ranks
  std::vector<SizePoint> points;
};

// Elaborates and runs in this process (once per process, like run_experiment).
MessageBenchResult run_message_benchmark(const Config& config, const ProgressSink& progress = {});

// Its results file and its one-line summary.
nlohmann::ordered_json to_json(const MessageBenchResult& result);
std::string summary_line(const MessageBenchResult& result);
// One line per size: msgrate "bytes,messages,time_ns,rate_mmsg_s,bandwidth_gbit_s,bound_gbit_s";
// pingpong "bytes,round_trips,half_rtt_ns,bandwidth_gbit_s,bound_gbit_s".
std::string to_csv(const MessageBenchResult& result);
// The registry's run of msgrate and pingpong: the results, and the CSV per size beside them.
RunOutput message_benchmark_output(const Config& config, const ProgressSink& progress);
// The extension of its side file, a CSV per size beside the results JSON.
inline constexpr const char* kPerSizeExtension = ".csv";

}  // namespace angara
