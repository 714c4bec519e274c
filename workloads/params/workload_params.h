#pragma once
// What a workload runs: the experiment kind, the collective operation, the synthetic traffic and
// the applications' parameters, with their defaults. Each validate() throws a ConfigError naming
// the config key, the value and the rule. No SystemC: the config loader links this alone.

#include <cstdint>
#include <vector>

#include "models/core/params.h"

namespace angara {

// synthetic: [traffic]; collective: the hardware subnet driven from the endpoints; msgrate,
// pingpong, software: CPU programs over the message API (models/node).
enum class WorkloadKind { Synthetic, Collective, MsgRate, PingPong, Software, Spmv, Heat };
enum class CollectiveOp { Broadcast, Reduce, Allreduce, Allgather, ReduceScatter };
// How the CPU programs of a software experiment do the collective: with messages
// (collectives/software/software_collectives.h), or by driving the hardware subnet through their
// PCIe endpoints (Subnet: the like-for-like comparison, both measured from program to program).
enum class SoftwareAlgorithm {
  Tree,
  Binomial,
  RecursiveDoubling,
  Subnet,
  Chain,          // pipelined chain (broadcast), in segments of segment_bytes
  Ring,           // scatter + ring allgather (broadcast), ring (allreduce, allgather)
  Rabenseifner,   // recursive halving + doubling (allreduce)
  PipelinedTree,  // pipelined binomial tree (broadcast), in segments of segment_bytes
  Dimensional,    // ring reduce-scatter and allgather dimension by dimension (allreduce)
  RingSubnet      // ring reduce-scatter by messages, then the subnet's allgather (allreduce)
};

// What the endpoints run: [traffic] for the synthetic kind; for the collective kind, one
// operation repeated, each started when the one before has completed.
struct WorkloadParams {
  static constexpr int kMaxRepetitions = 1000000;
  WorkloadKind kind = WorkloadKind::Synthetic;
  CollectiveOp op = CollectiveOp::Broadcast;
  Reduction reduction = Reduction::Sum;
  int tree = 0;                  // TreeId
  std::vector<int> source;       // broadcast source; empty: the tree's root
  std::vector<int> destination;  // reduce result's node; empty: the tree's root
  int payload_flits = 16;        // data flits per packet, 1..16
  int repetitions = 10;
  bool overlap = false;  // start every operation at once (the processors' 16-reduce window applies)
  bool all_trees = false;        // run each operation on every tree at once (tree is then ignored)
  double background_rate = 0.0;  // uniform point-to-point traffic beside, flits/node/cycle
  SoftwareAlgorithm algorithm = SoftwareAlgorithm::Tree;  // software collectives
  // msgrate and pingpong: rank 0 is node 0, rank 1 is `peer` (empty: node 0's +X neighbour)
  std::vector<int> peer;
  std::vector<int> sizes{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};  // message bytes
  int messages = 1000;  // msgrate: messages per size; pingpong: round trips per size
  // Software collectives: the operation's bytes (broadcast, reduce, allreduce: the vector;
  // allgather: each rank's block); 0: payload_flits x 16. segment_bytes: a pipelined design's
  // segments.
  static constexpr int kMaxBytes = 64 << 20;
  int bytes = 0;
  int segment_bytes = 8192;
  bool values = true;  // carried and checked; false: messages timed by their lengths alone
  // Over the subnet: the operation cut across trees tree .. tree + subnet_trees - 1.
  int subnet_trees = 1;

  // Bytes a collective operation carries (payload_flits flits of 16 bytes).
  int payload_bytes() const { return payload_flits * 16; }
  // Bytes of a software collective operation.
  int operation_bytes() const { return bytes > 0 ? bytes : payload_bytes(); }

  void validate(const TopologyParams& topology, const CollectiveParams& collective) const;

 private:
  void validate_algorithm() const;
  void validate_messages(const TopologyParams& topology) const;
};

// Where synthetic packets go (workloads/synthetic/destinations.h says what each one is).
enum class TrafficPattern {
  Uniform,
  Local,
  Hotspot,
  Transpose,
  BitComplement,
  BitReverse,
  Shuffle,
  Tornado,
  Neighbour,
  RandomPermutation,
  Fft3d,
};
// When a node creates its packets (workloads/synthetic/injection.h).
enum class InjectionProcess { Bernoulli, Poisson, OnOff };

struct TrafficParams {
  TrafficPattern pattern = TrafficPattern::Uniform;
  InjectionProcess injection = InjectionProcess::Bernoulli;
  double rate = 0.3;      // offered load, flits (header + data) per node per cycle, 0..1
  int packet_flits = 16;  // data flits per packet, 1..16 (one header flit is added)
  // Messages longer than a packet, in data flits (0: a message is one packet of packet_flits),
  // split into packets of 16 and the rest.
  int message_flits = 0;
  // Bimodal lengths: two message lengths in data flits and the share of the first; empty: every
  // message has message_flits (or packet_flits).
  std::vector<int> bimodal_flits;
  double bimodal_fraction = 0.5;
  double local_rate = 0.5;         // local: share of packets to a node within local_distance
  int local_distance = 1;          // local: hops
  double hotspot_rate = 0.1;       // hotspot: share of each node's packets to hotspot_node
  std::vector<int> hotspot_node;   // hotspot: [x, y, ...]; empty: node 0
  int fft_rows = 0, fft_cols = 0;  // fft3d: the process grid (process i on node i)
  int fft_phase = 1;               // fft3d: 1 all-to-all within a row, 2 within a column
  double burst_cycles = 100;       // on_off: mean length of a burst
  double idle_cycles = 100;        // on_off: mean pause between bursts
  // A probe pair: `probes` messages from probe_src to probe_dst beside the load, spread evenly
  // over the measurement window and measured apart (0: none). They have the first length.
  int probes = 0;
  std::vector<int> probe_src, probe_dst;

  // Data flits of a message (bimodal: the first length).
  int first_message_flits() const;
  // Wire flits of a message, on average over the lengths.
  double mean_wire_flits() const;
  static constexpr int kMaxMessageFlits = 65536;  // 1 MiB
  static constexpr int kMaxProbes = 100000;
  void validate(const TopologyParams& topology) const;
};

// The applications of the published collective-subnet study as CPU programs (workload kinds spmv
// and heat). Their collectives: workload.algorithm (spmv: recursive_doubling or subnet; heat: tree
// or subnet); their iterations: workload.repetitions. Compute rates are the spec's measured
// single-node rates; flops_per_cell is the model's count for the nonlinear scheme
// (docs/paper/REPORT.md).
struct AppParams {
  static constexpr std::uint64_t kMaxRows = std::uint64_t{1} << 27;  // y: 1 GiB
  static constexpr int kMaxGridCells = 1 << 24;                      // along x or y
  std::uint64_t rows = 20480000;      // spmv: matrix rows N, split in equal blocks
  int nonzeros_per_row = 10;          // spmv: d
  double spmv_mflops = 591;           // spmv: one node's rate, MFlop/s
  std::vector<int> grid{6400, 6400};  // heat: cells along x and y
  double heat_gflops = 11;            // heat: one node's rate, GFlop/s
  int flops_per_cell = 25;            // heat: per cell and step (assumption)

  void validate(WorkloadKind kind, int nodes) const;
};

}  // namespace angara
