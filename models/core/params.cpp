#include "models/core/params.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <bit>
#include <cmath>

#include "models/core/collective_format.h"
#include "models/core/config_error.h"
#include "models/core/packet.h"

namespace angara {
Cycle ceil_cycles(double cycles) {
  return static_cast<Cycle>(std::ceil(cycles - 1e-9));
}

namespace {

std::string range_rule(const std::string& min, const std::string& max, const std::string& unit,
                       const std::string& why) {
  auto rule = fmt::format("must be a finite number from {} to {}{}{}", min, max,
                          unit.empty() ? "" : " ", unit);
  return why.empty() ? rule : fmt::format("{} ({})", rule, why);
}

}  // namespace

void check_range(const std::string& key, double value, double min, double max,
                 const std::string& unit, const std::string& why) {
  if (!(std::isfinite(value) && value >= min && value <= max)) {
    throw ConfigError(key, fmt::format("{}", value),
                      range_rule(fmt::format("{}", min), fmt::format("{}", max), unit, why));
  }
}

void check_int_range(const std::string& key, long long value, long long min, long long max,
                     const std::string& unit, const std::string& why) {
  if (value < min || value > max) {
    auto rule = fmt::format("must be from {} to {}{}{}", min, max, unit.empty() ? "" : " ", unit);
    if (!why.empty()) rule += fmt::format(" ({})", why);
    throw ConfigError(key, fmt::format("{}", value), rule);
  }
}

std::vector<Direction> RouterParams::resolved_direction_order(int dims) const {
  if (!direction_order.empty()) return direction_order;
  std::vector<Direction> order;
  for (int d = 0; d < dims; ++d) {
    order.push_back({d, false});
    order.push_back({d, true});
  }
  return order;
}

void RouterParams::validate(int dims) const {
  check_range("router.clock_mhz", clock_mhz, kMinClockMhz, kMaxClockMhz, "MHz",
              "a cycle of 10 ps to 1 us, in whole picoseconds");
  if (!direction_order.empty()) {
    std::vector<std::string> names;
    for (auto d : direction_order) names.push_back(d.name());
    const auto text = fmt::format("[{}]", fmt::join(names, ", "));
    std::vector<int> seen(std::size_t{2} * kMaxDims, 0);
    for (auto d : direction_order) {
      if (d.dim >= dims) {
        throw ConfigError(
            "router.direction_order", text,
            fmt::format("{} is not a direction of a {}-dimensional torus", d.name(), dims));
      }
      ++seen[d.index()];
    }
    for (int i = 0; i < 2 * dims; ++i) {
      if (seen[i] != 1) {
        throw ConfigError("router.direction_order", text,
                          fmt::format("every direction must appear exactly once ({} appears {} "
                                      "times)",
                                      Direction::from_index(i).name(), seen[i]));
      }
    }
  }
  if (vcs < 1 || vcs > 8) {
    throw ConfigError("router.vcs", fmt::format("{}", vcs), "must be 1 to 8 (3-bit VC field)");
  }
  const VcLayout layout = vc_layout();
  if (adaptive() && vcs <= layout.classes) {
    throw ConfigError(
        "router.vcs", fmt::format("{}", vcs),
        fmt::format("adaptive routing needs at least {} VCs: the escape VC{} and "
                    "one adaptive VC",
                    layout.classes + 1, layout.classes == 2 ? "'s two dateline classes" : ""));
  }
  if (deadlock == DeadlockScheme::HopClasses && !std::has_single_bit(static_cast<unsigned>(vcs))) {
    throw ConfigError("router.vcs", fmt::format("{}", vcs),
                      "hop classes put a packet's h-th hop on VC h, numbered in bits: 1, 2, 4 "
                      "or 8 VCs (router.deadlock = \"hop_classes\")");
  }
  if (!adaptive() && vcs % layout.classes != 0) {
    throw ConfigError("router.vcs", fmt::format("{}", vcs),
                      "the dateline scheme needs an even number of VCs (two classes per set)");
  }
  if (route_phases > 1 && adaptive()) {
    throw ConfigError("router.routing", "\"adaptive\"",
                      "[faults] routes around failures in direction order only: set "
                      "router.routing = \"dimension_order\" or remove [faults]");
  }
  if (route_phases > 1 && vcs % layout.per_set() != 0) {
    throw ConfigError(
        "router.vcs", fmt::format("{}", vcs),
        fmt::format("[faults] routes a detoured packet's {} legs each on VCs of its own: "
                    "router.vcs must be a multiple of {} ({} legs x {} VC class{} of "
                    "router.deadlock)",
                    route_phases, layout.per_set(), route_phases, layout.classes,
                    layout.classes == 1 ? "" : "es"));
  }
  if (wormhole() && adaptive()) {
    // Duato's escape argument (routing/adaptive_routing.h) needs a blocked packet wholly in one
    // buffer; a worm blocked on an adaptive VC holds VCs behind it that the escape network needs.
    throw ConfigError("router.routing", "\"adaptive\"",
                      "adaptive routing needs virtual cut-through: with router.switching = "
                      "\"wormhole\" use router.routing = \"dimension_order\"");
  }
  // Wormhole: a few flits per VC. Virtual cut-through holds whole packets; a bubble needs one
  // more largest packet of room.
  const int min_buffer = wormhole()                           ? kMinWormholeBufferFlits
                         : deadlock == DeadlockScheme::Bubble ? 2 * kMaxPacketFlits
                                                              : kMaxPacketFlits;
  if (wormhole() && buffer_flits < min_buffer) {
    throw ConfigError("router.buffer_flits", fmt::format("{}", buffer_flits),
                      fmt::format("with router.switching = \"wormhole\" a VC must hold at least {} "
                                  "flits",
                                  min_buffer));
  }
  if (buffer_flits < min_buffer) {
    throw ConfigError("router.buffer_flits", fmt::format("{}", buffer_flits),
                      fmt::format("must hold at least {} flits (a largest packet{})", min_buffer,
                                  deadlock == DeadlockScheme::Bubble ? " plus the bubble" : ""));
  }
  check_int_range("router.buffer_flits", buffer_flits, min_buffer, kMaxBufferFlits, "flits");
  check_int_range("router.pipeline_cycles", pipeline_cycles, 1, kMaxBlockCycles, "cycles");
}

void ChannelParams::validate(const std::string& section) const {
  check_range(section + ".bandwidth_gbps", bandwidth_gbps, kMinBandwidthGbps, kMaxBandwidthGbps,
              "Gbit/s");
  check_range(section + ".latency_ns", latency_ns, 0, kMaxLatencyNs, "ns");
}

// The Reducer's cycle fields are 4 bits, and the head and the slot read take a cycle each.
void CollectiveParams::check_rtl_reducer() const {
  if (reducer_cycles < 2 || reducer_cycles > 15) {
    throw ConfigError("collective.reducer_cycles", fmt::format("{}", reducer_cycles),
                      "with the RTL Reducer it must be 2..15 (the head, then the slot read)");
  }
  if (reducer_flit_cycles < 1 || reducer_flit_cycles > 15) {
    throw ConfigError("collective.reducer_flit_cycles", fmt::format("{}", reducer_flit_cycles),
                      "with the RTL Reducer it must be 1..15 (a data flit per beat)");
  }
}

// VCUp's stage timers are 4 bits and each stage takes a cycle at least; it has 64 entries and
// takes a largest packet.
void CollectiveParams::check_rtl_vcup() const {
  if (table_cycles < 1 || table_cycles > 15) {
    throw ConfigError("collective.table_cycles", fmt::format("{}", table_cycles),
                      "with the RTL VCUp it must be 1..15 (a 4-bit timer)");
  }
  if (analysis_cycles < 1 || analysis_cycles > 15) {
    throw ConfigError("collective.analysis_cycles", fmt::format("{}", analysis_cycles),
                      "with the RTL VCUp it must be 1..15 (a 4-bit timer)");
  }
  if (buffer_flits < kMaxPacketFlits || buffer_flits > 64) {
    throw ConfigError("collective.buffer_flits", fmt::format("{}", buffer_flits),
                      "with the RTL VCUp it must be 17..64 (a largest packet; 64 entries)");
  }
}

void FaultParams::validate(const TopologyParams& topology) const {
  check_range("faults.random_links", random_links, 0.0, 1.0, "", "a share of the links");
  check_range("faults.random_nodes", random_nodes, 0.0, 1.0, "", "a share of the nodes");
  if (any() && !topology.torus()) {
    throw ConfigError("faults", "links or nodes",
                      fmt::format("failed links and nodes are routed around on a torus only "
                                  "(topology.kind = \"{}\"): remove [faults] or use a torus",
                                  topology.kind == TopologyKind::FatTree ? "fat_tree" : "cayley"));
  }
  if (fail_at_cycle > kMaxRunCycles) {
    throw ConfigError("faults.fail_at_cycle", fmt::format("{}", fail_at_cycle),
                      fmt::format("must be from 0 to {} cycles (so that the run's time fits the "
                                  "model's integer picoseconds)",
                                  kMaxRunCycles));
  }
  if (fail_at_cycle > 0 && links.empty() && random_links == 0) {
    throw ConfigError("faults.fail_at_cycle", fmt::format("{}", fail_at_cycle),
                      "fails the links of faults.links and faults.random_links at that cycle, "
                      "and there are none: name the links that fail, or leave it out");
  }
  if (fail_at_cycle > 0 && (!nodes.empty() || random_nodes > 0)) {
    throw ConfigError("faults.fail_at_cycle", fmt::format("{}", fail_at_cycle),
                      fmt::format("only links fail during a run; {} fails nodes, which are "
                                  "failed from the start: leave out one or the other",
                                  nodes.empty() ? "faults.random_nodes" : "faults.nodes"));
  }
  for (const auto& n : nodes) topology.check_node("faults.nodes", n);
  for (const auto& link : links) {
    topology.check_node("faults.links", link.node);
    Direction d;
    if (!parse_direction(link.dir, d) || d.dim >= static_cast<int>(topology.dims.size())) {
      throw ConfigError("faults.links",
                        fmt::format("[{}, \"{}\"]", fmt::join(link.node, ", "), link.dir),
                        fmt::format("the direction must be one of this {}-dimensional torus's: "
                                    "+X, -X, ... (a sign and a dimension)",
                                    topology.dims.size()));
    }
  }
}

void CollectiveParams::validate(const TopologyParams& topology) const {
  if (trees < 0 || trees > 16) {
    throw ConfigError("collective.trees", fmt::format("{}", trees), "0 to 16 trees (TreeId 0..15)");
  }
  if (static_cast<int>(roots.size()) > trees) {
    throw ConfigError("collective.roots", fmt::format("{} roots", roots.size()),
                      fmt::format("at most one root per tree ({} trees)", trees));
  }
  for (const auto& r : roots) topology.check_node("collective.roots", r);
  for (const auto& n : transit) topology.check_node("collective.transit", n);
  std::vector<bool> used(16, false);
  for (int id = 0; id < trees; ++id) used[id] = true;
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const auto key = fmt::format("collective.tree[{}]", i);
    if (tree[i].id < 0 || tree[i].id > 15 || used[tree[i].id]) {
      throw ConfigError(key + ".id", fmt::format("{}", tree[i].id),
                        fmt::format("a TreeId 0..15 not taken by another tree (the {} "
                                    "dimension-order trees use 0..{})",
                                    trees, trees - 1));
    }
    used[tree[i].id] = true;
    for (std::size_t r = 0; r < tree[i].rows.size(); ++r) {
      const auto& row = tree[i].rows[r];
      topology.check_node(fmt::format("{}.rows[{}].node", key, r), row.node);
      Direction d;
      if (!row.to_root.empty() && !parse_direction(row.to_root, d)) {
        throw ConfigError(fmt::format("{}.rows[{}].to_root", key, r), "\"" + row.to_root + "\"",
                          "a direction such as \"-X\", or empty at the root");
      }
    }
  }
  if (buffer_flits < 2 * kMaxPacketFlits) {
    throw ConfigError("collective.buffer_flits", fmt::format("{}", buffer_flits),
                      fmt::format("VCUp/VCDown store whole packets and keep a bubble: at least {} "
                                  "flits",
                                  2 * kMaxPacketFlits));
  }
  check_int_range("collective.buffer_flits", buffer_flits, 2 * kMaxPacketFlits, kMaxBufferFlits,
                  "flits");
  const std::pair<const char*, int> cycles[] = {
      {"collective.table_cycles", table_cycles},
      {"collective.analysis_cycles", analysis_cycles},
      {"collective.route_cycles", route_cycles},
      {"collective.broadcaster_cycles", broadcaster_cycles},
      {"collective.reducer_cycles", reducer_cycles},
      {"collective.reducer_flit_cycles", reducer_flit_cycles},
      {"collective.reducer_result_cycles", reducer_result_cycles}};
  for (const auto& [key, value] : cycles) check_int_range(key, value, 0, kMaxBlockCycles, "cycles");
  check_int_range("collective.reduces_in_flight", reduces_in_flight, 1, kReducesPerTree,
                  "reduces per tree", "the header's ReduceId tells 16 apart");
  check_int_range("collective.credit_batch", credit_batch, 1, reduces_in_flight, "results",
                  "a parent credits its children once that many results have left it: more than "
                  "collective.reduces_in_flight would never come");
  check_int_range("collective.report_results", report_results, 1, 1 << 20, "results");
  check_int_range("collective.report_cycles", report_cycles, 1, 1 << 24, "cycles");
}

void SimParams::validate() const {
  const auto cycles = [](const char* key, Cycle value, Cycle min, Cycle max, const char* why) {
    if (value < min || value > max) {
      throw ConfigError(key, fmt::format("{}", value),
                        fmt::format("must be from {} to {} cycles ({})", min, max, why));
    }
  };
  const char* time_rule = "so that the run's time fits the model's integer picoseconds";
  cycles("sim.warmup_cycles", warmup_cycles, 0, kMaxRunCycles, time_rule);
  cycles("sim.measure_cycles", measure_cycles, 1, kMaxRunCycles, time_rule);
  cycles("sim.drain_cycles", drain_cycles, 0, kMaxRunCycles, time_rule);
  cycles("sim.watchdog_cycles", watchdog_cycles, 1, kMaxRunCycles, time_rule);
  cycles("sim.quantum_cycles", quantum_cycles, 1, kMaxQuantumCycles,
         "how far an LT endpoint runs ahead; a larger quantum only slows LT's slices down");
  if (train_packets < 1 || train_packets > 4096) {
    throw ConfigError("sim.train_packets", fmt::format("{}", train_packets), "1..4096 packets");
  }
  if (source_queue_packets < 1 || source_queue_packets > kMaxSourceQueuePackets) {
    throw ConfigError("sim.source_queue_packets", fmt::format("{}", source_queue_packets),
                      fmt::format("must be from 1 to {} packets per node", kMaxSourceQueuePackets));
  }
}

void PcieParams::validate() const {
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16 && lanes != 32) {
    throw ConfigError("pcie.lanes", fmt::format("{}", lanes), "1, 2, 4, 8, 16 or 32 lanes");
  }
  check_range("pcie.transfer_gtps", transfer_gtps, 0.01, 1000, "GT/s per lane");
  if (max_payload_bytes < 128 || max_payload_bytes > 4096 ||
      (max_payload_bytes & (max_payload_bytes - 1)) != 0) {
    throw ConfigError("pcie.max_payload_bytes", fmt::format("{}", max_payload_bytes),
                      "a power of two from 128 to 4096 bytes");
  }
  check_int_range("pcie.tlp_overhead_bytes", tlp_overhead_bytes, 0, 4096, "bytes");
  check_range("pcie.latency_ns", latency_ns, 0, kMaxLatencyNs, "ns");
}

void NodeParams::validate() const {
  check_range("node.gflops", gflops, 1e-3, 1e6, "GFlop/s");
  check_range("node.send_overhead_ns", send_overhead_ns, 0, kMaxLatencyNs, "ns");
  check_range("node.recv_overhead_ns", recv_overhead_ns, 0, kMaxLatencyNs, "ns");
  if (max_message_bytes < 16 || max_message_bytes > 65536) {
    throw ConfigError("node.max_message_bytes", fmt::format("{}", max_message_bytes),
                      "from 16 to 65536 bytes (the message tag's length field)");
  }
  check_int_range("node.pio_max_bytes", pio_max_bytes, 0, 65536, "bytes");
  if (tx_buffer_bytes < max_message_bytes) {
    throw ConfigError("node.tx_buffer_bytes", fmt::format("{}", tx_buffer_bytes),
                      fmt::format("must hold one largest message (node.max_message_bytes = {})",
                                  max_message_bytes));
  }
  check_int_range("node.tx_buffer_bytes", tx_buffer_bytes, max_message_bytes, 1 << 30, "bytes");
  if (rx_ring_bytes < max_message_bytes + 16 || rx_ring_bytes % 16 != 0) {
    throw ConfigError("node.rx_ring_bytes", fmt::format("{}", rx_ring_bytes),
                      fmt::format("a multiple of 16 holding one largest message "
                                  "(node.max_message_bytes = {}) and more",
                                  max_message_bytes));
  }
  check_int_range("node.rx_ring_bytes", rx_ring_bytes, max_message_bytes + 16, 1 << 30, "bytes");
  if (channels < 1 || channels > 256) {
    throw ConfigError("node.channels", fmt::format("{}", channels), "from 1 to 256 per node");
  }
}

ChannelTiming::ChannelTiming(const ChannelParams& channel, double clock_mhz)
    : latency(ceil_cycles(channel.latency_ns * clock_mhz / 1000.0)),
      cycles_per_flit(kFlitBits * clock_mhz / (channel.bandwidth_gbps * 1000.0)) {
  for (std::size_t n = 0; n < m_serialization.size(); ++n) {
    m_serialization[n] = ceil_cycles(static_cast<double>(n) * cycles_per_flit);
  }
}

}  // namespace angara
