#pragma once
// A whole experiment's parameters as the config file gives them: the machine's (models/core),
// the workload's and its compute model's (workloads/params) and the waveforms to record.

#include <string>
#include <vector>

#include "models/core/params.h"
#include "platform/config/partition_params.h"
#include "workloads/params/compute_model.h"
#include "workloads/params/workload_params.h"

namespace angara {

// Waveforms of chosen nodes' blocks (AT only), written as a VCD file.
struct TraceParams {
  std::vector<std::vector<int>> nodes;  // coordinates; empty: tracing off
  std::vector<std::string> blocks{"link",         "vc",          "vcup",    "vcdown",
                                  "pegroup_fifo", "broadcaster", "reducer", "credit"};
  std::string file = "trace.vcd";

  bool on() const { return !nodes.empty(); }
  bool traces(const std::string& block) const;
  // Whether a run of `kind` records waveforms (the kinds whose traffic the routers carry alone).
  static bool kind_traces(WorkloadKind kind);
  void validate(const TopologyParams& topology, SimMode mode, WorkloadKind kind) const;
};

// Statistics of synthetic traffic (docs/STATS.md): per link, per input VC and per router over
// the measurement window, as a summary in the results and CSV files beside them; and the run's
// traffic per interval of cycles, a CSV beside them.
inline constexpr Cycle kMaxIntervals = 100000;  // rows of the table over time
struct StatsParams {
  bool network = false;
  Cycle interval_cycles = 0;  // 0: no table over time

  void validate(WorkloadKind kind, const SimParams& sim) const;
};

// Blocks run from their SystemVerilog beside or instead of the C++ model (docs/RTL.md): the
// model alone; the RTL compared with the model cycle by cycle (Check); the RTL's timing driving
// the model, its values still compared (Drive). The RTL runs in AT only.
enum class BlockImpl { Model, Check, Drive };
struct RtlParams {
  BlockImpl reducer = BlockImpl::Model;  // the PEGroup's Reducer
  BlockImpl vcup = BlockImpl::Model;     // the routers' VCUp buffers

  bool any() const { return reducer != BlockImpl::Model || vcup != BlockImpl::Model; }
  void validate(SimMode mode, const CollectiveParams& collective) const;
};

// A whole experiment's parameters.
struct Config {
  TopologyParams topology;
  RouterParams router;
  ChannelParams link;
  ChannelParams endpoint{75.0, 0.0};  // injection and ejection ports of the router
  CollectiveParams collective;
  WorkloadParams workload;
  TrafficParams traffic;
  SimParams sim;
  TraceParams trace;
  StatsParams stats;
  PcieParams pcie;
  NodeParams node;
  AppParams app;
  ComputeParams compute;
  RtlParams rtl;
  FaultParams faults;
  // [[partition]]: the machine re-cabled into independent tori, each running its own workload;
  // empty: the whole torus runs this config's workload.
  std::vector<PartitionParams> partitions;

  // The routers' parameters: router's, with a detour's legs when [faults] fails something.
  RouterParams routed() const;
  FabricParams fabric() const { return {routed(), link, endpoint, collective, faults}; }
  // Cycles before which nothing can be delivered at zero load: a largest packet between the
  // farthest two nodes (models/core/zero_load.h), plus what the kind adds on the way (the
  // collective subnet's table and analysis stages, a message's send call and PCIe links). The
  // watchdog must be longer.
  Cycle first_delivery_floor() const;
  void validate() const;

  // Partition `index` as the standalone config of its torus: the machine's keys, topology.dims
  // = its dims, its seed and workload, and no partitions. Its run is the partition's run.
  Config partition_config(std::size_t index) const;
  // The machine's nodes in no partition: they run nothing (0 without partitions).
  int idle_nodes() const;

 private:
  // With partitions: the boxes (inside the torus, disjoint), the features a partitioned machine
  // refuses, then each partition's standalone config, its errors named under partition[i].
  void validate_partitions() const;
  // The collective subnet, the nodes' CPUs and the waveforms are the torus's: a fat tree or a
  // Cayley graph runs synthetic traffic only.
  void validate_off_torus() const;
  void validate_cayley_deadlock() const;
  void validate_wormhole() const;
};

}  // namespace angara
