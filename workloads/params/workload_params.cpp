#include "workloads/params/workload_params.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <numeric>
#include <tuple>

#include "models/core/config_error.h"

namespace angara {

namespace {

// The value as the config file writes it, for error messages.
const char* quoted(SoftwareAlgorithm algorithm) {
  constexpr const char* kNames[] = {
      "\"tree\"",        "\"binomial\"",   "\"recursive_doubling\"", "\"subnet\"",
      "\"chain\"",       "\"ring\"",       "\"rabenseifner\"",       "\"pipelined_tree\"",
      "\"dimensional\"", "\"ring_subnet\""};
  return kNames[static_cast<int>(algorithm)];
}

}  // namespace

void WorkloadParams::validate(const TopologyParams& topology,
                              const CollectiveParams& collective) const {
  // Ranges hold whatever the kind: a bad value is an error even where the kind ignores the key.
  if (payload_flits < 1 || payload_flits > kMaxDataFlits) {
    throw ConfigError("workload.payload_flits", fmt::format("{}", payload_flits),
                      "a packet carries 1 to 16 data flits");
  }
  check_int_range("workload.repetitions", repetitions, 1, kMaxRepetitions, "operations",
                  "every node keeps a record of each");
  check_range("workload.background_rate", background_rate, 0.0, 1.0, "flits per node per cycle");
  if (sizes.empty()) throw ConfigError("workload.sizes", "[]", "give at least one message size");
  for (int size : sizes) {
    if (size < 1 || size > (1 << 20)) {
      throw ConfigError("workload.sizes", fmt::format("{}", size),
                        "message sizes are 1 B .. 1 MiB");
    }
  }
  check_int_range("workload.messages", messages, 1, 100000000, "messages");
  for (const auto& [key, value, least] : {std::tuple{"workload.bytes", bytes, 0},
                                          std::tuple{"workload.segment_bytes", segment_bytes, 8}}) {
    check_int_range(key, value, least, kMaxBytes, "bytes", "an operation carries up to 64 MiB");
    if (value % 8 != 0) {
      throw ConfigError(key, fmt::format("{}", value),
                        "a whole number of 64-bit words: a multiple of 8 bytes");
    }
  }
  if (kind == WorkloadKind::Synthetic) return;
  if (kind == WorkloadKind::MsgRate || kind == WorkloadKind::PingPong) {
    validate_messages(topology);
    return;
  }
  if (kind == WorkloadKind::Collective &&
      (op == CollectiveOp::Allgather || op == CollectiveOp::ReduceScatter)) {
    throw ConfigError("workload.op",
                      op == CollectiveOp::Allgather ? "\"allgather\"" : "\"reduce_scatter\"",
                      "the hardware subnet has no allgather or reduce-scatter; run it in "
                      "software: workload.kind = \"software\"");
  }
  if (kind == WorkloadKind::Software && op == CollectiveOp::ReduceScatter &&
      algorithm == SoftwareAlgorithm::Rabenseifner) {
    const int n =
        std::accumulate(topology.dims.begin(), topology.dims.end(), 1, std::multiplies<>());
    if (!std::has_single_bit(static_cast<unsigned>(n))) {
      throw ConfigError("workload.algorithm", "\"rabenseifner\"",
                        fmt::format("a reduce-scatter by recursive halving needs a power of two "
                                    "of nodes, not {}: use \"ring\"",
                                    n));
    }
  }
  if (kind == WorkloadKind::Software) validate_algorithm();
  const bool subnet_allgather =
      algorithm == SoftwareAlgorithm::Subnet &&
      ((kind == WorkloadKind::Software && op == CollectiveOp::Allgather) ||
       kind == WorkloadKind::Spmv);
  const bool mixed = kind == WorkloadKind::Software && algorithm == SoftwareAlgorithm::RingSubnet;
  if ((subnet_allgather || mixed) && collective.trees == 0 && collective.tree.empty()) {
    throw ConfigError("collective.trees", "0",
                      "an allgather over the subnet spreads its broadcasts over the machine's "
                      "trees: at least one (or a [[collective.tree]])");
  }
  if (kind == WorkloadKind::Spmv || kind == WorkloadKind::Heat) {
    const auto message_algorithm =
        kind == WorkloadKind::Spmv ? SoftwareAlgorithm::RecursiveDoubling : SoftwareAlgorithm::Tree;
    if (algorithm != SoftwareAlgorithm::Subnet && algorithm != message_algorithm) {
      throw ConfigError("workload.algorithm", quoted(algorithm),
                        kind == WorkloadKind::Spmv
                            ? "spmv allgathers by recursive_doubling or over the subnet"
                            : "heat allreduces along the tree or over the subnet");
    }
  }
  const bool given = std::any_of(collective.tree.begin(), collective.tree.end(),
                                 [this](const TreeSpec& t) { return t.id == tree; });
  const bool uses_tree = kind == WorkloadKind::Collective || algorithm == SoftwareAlgorithm::Tree ||
                         (algorithm == SoftwareAlgorithm::Subnet && op != CollectiveOp::Allgather);
  if (uses_tree && !given && (tree < 0 || tree >= collective.trees)) {
    throw ConfigError("workload.tree", fmt::format("{}", tree),
                      fmt::format("no such tree: collective.trees = {} (TreeId 0..{}) and no "
                                  "[[collective.tree]] with this id",
                                  collective.trees, collective.trees - 1));
  }
  if (!source.empty()) topology.check_node("workload.source", source);
  if (!destination.empty()) topology.check_node("workload.destination", destination);
}

void WorkloadParams::validate_algorithm() const {
  using A = SoftwareAlgorithm;
  const auto one_of = [&](std::initializer_list<A> designs) {
    return std::find(designs.begin(), designs.end(), algorithm) != designs.end();
  };
  bool fits = algorithm == A::Subnet;
  switch (op) {
    case CollectiveOp::Broadcast:
      fits |= one_of({A::Tree, A::Binomial, A::Chain, A::PipelinedTree, A::Ring});
      break;
    case CollectiveOp::Reduce:
      fits |= algorithm == A::Tree;
      break;
    case CollectiveOp::Allreduce:
      fits |= one_of(
          {A::Tree, A::RecursiveDoubling, A::Ring, A::Rabenseifner, A::Dimensional, A::RingSubnet});
      break;
    case CollectiveOp::Allgather:
      fits |= one_of({A::RecursiveDoubling, A::Ring});
      break;
    case CollectiveOp::ReduceScatter:  // the subnet has none
      fits = one_of({A::Ring, A::Rabenseifner});
      break;
  }
  if (!fits) {
    throw ConfigError("workload.algorithm", quoted(algorithm),
                      "broadcast: tree, binomial, chain, pipelined_tree or ring; reduce: tree; "
                      "allreduce: tree, recursive_doubling, ring, rabenseifner, dimensional or "
                      "ring_subnet; "
                      "allgather: recursive_doubling or ring; reduce_scatter: ring or "
                      "rabenseifner; any operation but reduce_scatter: subnet");
  }
  check_int_range("workload.subnet_trees", subnet_trees, 1, 16, "trees", "TreeIds are 0..15");
  if (subnet_trees > 1 && (algorithm != A::Subnet || op == CollectiveOp::Allgather)) {
    throw ConfigError("workload.subnet_trees", fmt::format("{}", subnet_trees),
                      "an operation is cut across trees by the subnet's broadcast, reduce and "
                      "allreduce (workload.algorithm = \"subnet\")");
  }
  // The chunked designs and the subnet move lengths alone without values; the tree and binomial
  // designs need the values at hand.
  if (!values && one_of({A::Tree, A::Binomial})) {
    throw ConfigError("workload.values", "false",
                      "timing only is for chain, pipelined_tree, ring, recursive_doubling, "
                      "rabenseifner, dimensional and subnet: the tree and binomial designs carry "
                      "their values");
  }
}

void WorkloadParams::validate_messages(const TopologyParams& topology) const {
  if (!peer.empty()) {
    topology.check_node("workload.peer", peer);
    if (std::all_of(peer.begin(), peer.end(), [](int c) { return c == 0; })) {
      throw ConfigError("workload.peer", fmt::format("[{}]", fmt::join(peer, ", ")),
                        "rank 1 must be another node than rank 0 (node 0)");
    }
  } else if (topology.dims.front() < 2) {
    throw ConfigError("topology.dims", fmt::format("[{}]", fmt::join(topology.dims, ", ")),
                      "the default peer is node 0's +X neighbour: give workload.peer");
  }
}

namespace {

// A message of `data` data flits on the wire: a header per packet of up to 16.
double wire_flits(int data) {
  return data + kHeaderFlits * ((data + kMaxDataFlits - 1) / kMaxDataFlits);
}

}  // namespace

int TrafficParams::first_message_flits() const {
  if (!bimodal_flits.empty()) return bimodal_flits[0];
  return message_flits > 0 ? message_flits : packet_flits;
}

double TrafficParams::mean_wire_flits() const {
  if (bimodal_flits.empty()) return wire_flits(first_message_flits());
  return bimodal_fraction * wire_flits(bimodal_flits[0]) +
         (1.0 - bimodal_fraction) * wire_flits(bimodal_flits[1]);
}

namespace {

void check_share(const char* key, double value) {
  if (!(value >= 0.0 && value <= 1.0)) {
    throw ConfigError(key, fmt::format("{}", value), "a share, between 0 and 1");
  }
}

bool power_of_two(int n) {
  return n > 1 && (n & (n - 1)) == 0;
}

// The patterns that permute a node id's bits, as the config file writes them.
const char* quoted_bits(TrafficPattern pattern) {
  switch (pattern) {
    case TrafficPattern::Transpose:
      return "\"transpose\"";
    case TrafficPattern::BitComplement:
      return "\"bit_complement\"";
    case TrafficPattern::BitReverse:
      return "\"bit_reverse\"";
    default:
      return "\"shuffle\"";
  }
}

}  // namespace

void TrafficParams::validate(const TopologyParams& topology) const {
  if (!(rate >= 0.0 && rate <= 1.0)) {
    throw ConfigError("traffic.rate", fmt::format("{}", rate),
                      "must be between 0 and 1 flit per node per cycle");
  }
  if (packet_flits < 1 || packet_flits > kMaxDataFlits) {
    throw ConfigError("traffic.packet_flits", fmt::format("{}", packet_flits),
                      "a packet carries 1 to 16 data flits (256 bytes at most)");
  }
  if (message_flits < 0 || message_flits > kMaxMessageFlits) {
    throw ConfigError("traffic.message_flits", fmt::format("{}", message_flits),
                      "0 (one packet of packet_flits) or a message of 1 to 65536 data flits");
  }
  if (!bimodal_flits.empty() && (bimodal_flits.size() != 2 ||
                                 std::any_of(bimodal_flits.begin(), bimodal_flits.end(), [](int f) {
                                   return f < 1 || f > kMaxMessageFlits;
                                 }))) {
    throw ConfigError("traffic.bimodal_flits", fmt::format("[{}]", fmt::join(bimodal_flits, ", ")),
                      "two message lengths of 1 to 65536 data flits, or [] for one length");
  }
  check_share("traffic.bimodal_fraction", bimodal_fraction);
  check_share("traffic.local_rate", local_rate);
  check_share("traffic.hotspot_rate", hotspot_rate);
  const int nodes = topology.node_count();
  if (pattern == TrafficPattern::Local && topology.kind == TopologyKind::Cayley) {
    throw ConfigError("traffic.pattern", "\"local\"",
                      "local traffic is drawn from a torus's box or a fat tree's subtree; a "
                      "Cayley graph (topology.kind = \"cayley\") has neither: use uniform, "
                      "hotspot or a permutation");
  }
  const int local_limit = topology.torus() ? topology.diameter() : topology.levels;
  if (pattern == TrafficPattern::Local && (local_distance < 1 || local_distance > local_limit)) {
    throw ConfigError("traffic.local_distance", fmt::format("{}", local_distance),
                      topology.torus()
                          ? fmt::format("1 to the torus's diameter, {} hops", local_limit)
                          : fmt::format("1 to topology.levels ({}): the height of the subtree "
                                        "around the source",
                                        local_limit));
  }
  if (!hotspot_node.empty()) topology.check_node("traffic.hotspot_node", hotspot_node);
  if (probes < 0 || probes > kMaxProbes) {
    throw ConfigError("traffic.probes", fmt::format("{}", probes),
                      fmt::format("0 (no probe pair) to {} probe messages", kMaxProbes));
  }
  if (probes > 0) {
    if (probe_src.empty() || probe_dst.empty()) {
      throw ConfigError(probe_src.empty() ? "traffic.probe_src" : "traffic.probe_dst", "[]",
                        "traffic.probes > 0: name both nodes of the probe pair");
    }
    topology.check_node("traffic.probe_src", probe_src);
    topology.check_node("traffic.probe_dst", probe_dst);
    if (probe_src == probe_dst) {
      throw ConfigError("traffic.probe_dst", fmt::format("[{}]", fmt::join(probe_dst, ", ")),
                        "a probe goes to another node than traffic.probe_src");
    }
  }
  const bool bits = pattern == TrafficPattern::BitComplement ||
                    pattern == TrafficPattern::BitReverse || pattern == TrafficPattern::Shuffle ||
                    pattern == TrafficPattern::Transpose;
  if (bits && !power_of_two(nodes)) {
    throw ConfigError("traffic.pattern", quoted_bits(pattern),
                      fmt::format("permutes the bits of a node's id: the node count ({}) must "
                                  "be a power of two",
                                  nodes));
  }
  if (pattern == TrafficPattern::Transpose && std::countr_zero(unsigned(nodes)) % 2 != 0) {
    throw ConfigError("traffic.pattern", "\"transpose\"",
                      fmt::format("swaps the halves of a node's id bits: the node count ({}) "
                                  "must be an even power of two (4, 16, 64, ...)",
                                  nodes));
  }
  if (pattern == TrafficPattern::Fft3d) {
    if (fft_rows < 1 || fft_cols < 1 || fft_rows * fft_cols > nodes) {
      throw ConfigError("traffic.fft_rows", fmt::format("{} (fft_cols {})", fft_rows, fft_cols),
                        fmt::format("a process grid of rows x cols processes, at most the {} "
                                    "nodes",
                                    nodes));
    }
    if (fft_phase != 1 && fft_phase != 2) {
      throw ConfigError("traffic.fft_phase", fmt::format("{}", fft_phase),
                        "1 (all-to-all within a row) or 2 (within a column)");
    }
    if ((fft_phase == 1 ? fft_cols : fft_rows) < 2) {
      throw ConfigError(fft_phase == 1 ? "traffic.fft_cols" : "traffic.fft_rows",
                        fmt::format("{}", fft_phase == 1 ? fft_cols : fft_rows),
                        "phase's groups need at least 2 processes");
    }
  }
  check_range("traffic.burst_cycles", burst_cycles, 1.0, static_cast<double>(kMaxRunCycles),
              "cycles", "a mean burst of at least 1 cycle");
  check_range("traffic.idle_cycles", idle_cycles, 0.0, static_cast<double>(kMaxRunCycles), "cycles",
              "a mean pause");
  if (injection == InjectionProcess::OnOff) {
    const double peak = rate / mean_wire_flits() * (burst_cycles + idle_cycles) / burst_cycles;
    if (peak > 1.0) {
      throw ConfigError("traffic.rate", fmt::format("{}", rate),
                        fmt::format("on/off sends at rate x (burst + idle) / burst while on, at "
                                    "most one message per cycle: here {:.3g} messages per cycle; "
                                    "lower the rate or the idle share",
                                    peak));
    }
  }
}

void AppParams::validate(WorkloadKind kind, int nodes) const {
  // Ranges hold whatever the kind; what depends on the machine's size only for the kind's own.
  check_int_range("app.nonzeros_per_row", nonzeros_per_row, 1, 1000000, "non-zeros");
  check_range("app.spmv_mflops", spmv_mflops, 1e-3, 1e9, "MFlop/s");
  check_range("app.heat_gflops", heat_gflops, 1e-6, 1e6, "GFlop/s");
  check_int_range("app.flops_per_cell", flops_per_cell, 1, 1000000, "flops");
  if (grid.size() != 2 || grid[0] < 1 || grid[1] < 1 || grid[0] > kMaxGridCells ||
      grid[1] > kMaxGridCells) {
    throw ConfigError("app.grid", fmt::format("[{}]", fmt::join(grid, ", ")),
                      fmt::format("two sizes [x, y] of 1 to {} cells (a face of a node's block, "
                                  "8 bytes a cell, is sent whole)",
                                  kMaxGridCells));
  }
  if (rows < 1 || rows > kMaxRows) {
    throw ConfigError(
        "app.rows", fmt::format("{}", rows),
        fmt::format("1 to {} rows (y, 8 bytes a row, is gathered on every node)", kMaxRows));
  }
  if (kind == WorkloadKind::Spmv) {
    const auto n = static_cast<std::uint64_t>(nodes);
    if (rows < n || rows % n != 0) {
      throw ConfigError("app.rows", fmt::format("{}", rows),
                        fmt::format("equal blocks: a multiple of the node count ({})", nodes));
    }
  }
  if (kind == WorkloadKind::Heat && std::int64_t{grid[0]} * grid[1] < nodes) {
    throw ConfigError("app.grid", fmt::format("[{}]", fmt::join(grid, ", ")),
                      fmt::format("at least one cell per node ({} nodes)", nodes));
  }
}

}  // namespace angara
