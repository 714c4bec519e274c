#pragma once
// Typed parameters of the modeled machine with the Table 1 defaults. Each validate() throws a
// ConfigError naming the config key (as spelled in the TOML file), the value and the rule.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/ids.h"
#include "models/core/packet.h"
#include "models/core/vc_layout.h"

namespace angara {

// The ranges every numeric key is held to, so that the model's integer time (router cycles, and
// SystemC's picoseconds under them) can hold every time a run computes: a clock period of at
// least 10 ps; latencies and cycle counts whose sum, in picoseconds, stays far below 2^64.
inline constexpr double kMinClockMhz = 1.0;             // a period of 1 us
inline constexpr double kMaxClockMhz = 100000.0;        // a period of 10 ps
inline constexpr double kMaxLatencyNs = 1e6;            // 1 ms: latencies and overheads
inline constexpr double kMinBandwidthGbps = 1e-3;       // 1 Mbit/s
inline constexpr double kMaxBandwidthGbps = 1e6;        // 1 Pbit/s
inline constexpr Cycle kMaxRunCycles = 1000000000000;   // 10^12 cycles: warm-up, measure, ...
inline constexpr Cycle kMaxQuantumCycles = 100000;      // LT quantum (larger only slows LT)
inline constexpr int kMaxBlockCycles = 1000000;         // a block's cycle count, a pipeline's
inline constexpr int kMaxBufferFlits = 65536;           // a buffer per VC or per port
inline constexpr int kMaxSourceQueuePackets = 1 << 20;  // per node: 32 MB of requests
inline constexpr int kMaxNodes = 65536;                 // 16-bit node ids in the header

// Throws a ConfigError under `key` unless `value` is a finite number from `min` to `max`; the
// message gives the range in `unit` (e.g. "ns") and `why` the range is what it is, if given.
void check_range(const std::string& key, double value, double min, double max,
                 const std::string& unit, const std::string& why = {});
// The same for an integer key.
void check_int_range(const std::string& key, long long value, long long min, long long max,
                     const std::string& unit, const std::string& why = {});

enum class TopologyKind { Torus, FatTree, Cayley };
// The group of a Cayley graph (topology.kind = "cayley").
enum class CayleyGroup {
  Circulant,  // the integers mod topology.order, generators +-s for s in topology.generators
  Star,       // the orderings of m symbols (m! = topology.order): swap the first with another
  Pancake,    // the same nodes: reverse the first 2 .. m symbols
};

struct TopologyParams {
  TopologyKind kind = TopologyKind::Torus;
  std::vector<int> dims{4, 4, 4};  // torus: ring size per dimension, in the order X, Y, Z, W
  int k = 4;                       // fat tree: k-ary (switches of 2k ports) ...
  int levels = 3;                  // ... n-tree: k^n nodes under n levels of switches
  CayleyGroup group = CayleyGroup::Circulant;  // Cayley graph: the group ...
  int order = 64;                              // ... its nodes ...
  std::vector<int> generators{1, 4, 16};       // ... and its generators (circulant: the steps)

  bool torus() const { return kind == TopologyKind::Torus; }

  int node_count() const;  // at most kMaxNodes + 1 (sizes beyond the limit saturate)
  int diameter() const;    // hops between the farthest two nodes (not a Cayley graph's: topology.h)
  void validate() const;
  // Throws a ConfigError under `key` unless `coords` name a node: one coordinate per dimension,
  // each on its ring (a fat tree or a Cayley graph: one, the node's number).
  void check_node(const std::string& key, const std::vector<int>& coords) const;
  // The node that check_node() accepted: X fastest on a torus, else the number.
  NodeId node_at(const std::vector<int>& coords) const;
  // A star or pancake graph's symbols: m with m! = order (0 if order is no factorial).
  int symbols() const;

 private:
  void validate_circulant() const;
};

// How the deterministic routing avoids deadlock on the torus rings.
enum class DeadlockScheme {
  Bubble,      // one VC class; entering a ring needs room for the packet plus one more (Angara)
  Dateline,    // two VC classes per ring; a packet moves to class 1 when it crosses the wrap link
  HopClasses,  // a Cayley graph: a packet's h-th hop on VC class h (router.vcs >= diameter)
  None,        // no protection: deadlocks under load; only to demonstrate the watchdog
};

// Which way a packet goes round a ring of even size when both ways are as short (k/2 hops).
enum class TieRule {
  Positive,           // always the positive way: the positive links carry more
  SourceParity,       // positive from an even coordinate, negative from an odd one
  DestinationParity,  // positive to an even coordinate, negative to an odd one
  Random,             // drawn per packet from the run's seed
};

// How a torus router picks a packet's next hop.
enum class RoutingAlgorithm {
  DimensionOrder,  // the one path of the direction order
  Adaptive,        // any minimal direction on an adaptive VC; direction order on the escape VC
};

// How a packet moves between routers' point-to-point buffers (docs/ROUTING.md, wormhole).
enum class Switching {
  Vct,  // virtual cut-through: a packet starts only when the next buffer has room for all of it
  Wormhole,  // a packet takes a free VC with its head and streams into it on flit credits (SKIF)
};

// Wormhole's least point-to-point buffer: two flits, so a worm keeps a flit in each buffer it
// spans while the next one moves.
inline constexpr int kMinWormholeBufferFlits = 2;

struct RouterParams {
  double clock_mhz = 500.0;  // router clock (Table 1)
  RoutingAlgorithm routing = RoutingAlgorithm::DimensionOrder;
  Switching switching = Switching::Vct;
  std::vector<Direction> direction_order;  // empty: +X,-X,+Y,-Y,... in dimension order
  DeadlockScheme deadlock = DeadlockScheme::Bubble;
  TieRule ties = TieRule::Positive;
  int vcs = 2;              // virtual channels per port (dateline: an even number)
  int buffer_flits = 64;    // input buffer per VC, flits
  int pipeline_cycles = 3;  // head in buffer -> head on the output: route, allocate, traverse
  // Not a key: 2 when [faults] fails something, so that a detoured packet's second leg has VCs
  // of its own (models/routing/fault_routing.h); else 1.
  int route_phases = 1;

  double cycle_ns() const { return 1000.0 / clock_mhz; }
  // How a port's VCs are numbered (classes: 2 with the dateline, all of them with hop classes;
  // legs: route_phases).
  VcLayout vc_layout() const {
    const int classes = deadlock == DeadlockScheme::HopClasses ? vcs
                        : deadlock == DeadlockScheme::Dateline ? 2
                                                               : 1;
    return {vcs, classes, route_phases, adaptive() ? classes : vcs};
  }
  bool adaptive() const { return routing == RoutingAlgorithm::Adaptive; }
  bool wormhole() const { return switching == Switching::Wormhole; }
  // The point-to-point VCs of a router's local port (injection and ejection), flits: with
  // wormhole at least a whole packet, since the endpoint stores and forwards whole packets.
  int local_buffer_flits() const {
    return wormhole() ? std::max(buffer_flits, kMaxPacketFlits) : buffer_flits;
  }
  // The direction order to route by on a torus of `dims` dimensions.
  std::vector<Direction> resolved_direction_order(int dims) const;
  void validate(int dims) const;
};

// A failed link of [faults] links: a node at one end and the direction from it ("+X").
struct FailedLinkSpec {
  std::vector<int> node;
  std::string dir;
  bool operator==(const FailedLinkSpec&) const = default;
};

// Failed links and nodes of a torus, which point-to-point routing goes around
// (models/routing/fault_routing.h). The random ones are drawn with the run's seed.
struct FaultParams {
  std::vector<FailedLinkSpec> links;    // each fails both ways
  std::vector<std::vector<int>> nodes;  // inject, receive and route nothing
  double random_links = 0.0;            // share of the torus's links failed at random, 0..1
  double random_nodes = 0.0;            // share of its nodes failed at random, 0..1
  // The cycle the links fail at: healthy before it, failed from it on (0: from the start). Packets
  // that would start on one from then on are rerouted (RouterCore::diverts()). Links only.
  Cycle fail_at_cycle = 0;

  // Whether anything is configured to fail.
  bool any() const {
    return !links.empty() || !nodes.empty() || random_links > 0 || random_nodes > 0;
  }
  void validate(const TopologyParams& topology) const;
};

// A unidirectional channel: a router-to-router link, or an endpoint's injection/ejection port.
struct ChannelParams {
  double bandwidth_gbps = 75.0;  // Table 1 link bandwidth
  double latency_ns = 80.0;      // Table 1 link latency

  void validate(const std::string& section) const;
};

// One node's row of a tree given explicitly in the config (fields as in the spec's table).
struct TreeRowSpec {
  std::vector<int> node;        // coordinates
  bool root = false;            // isRoot
  std::string to_root;          // toRoot direction, e.g. "-X"; empty at the root
  bool pe = true;               // Pe: the processor takes part
  std::vector<Direction> dirs;  // Dirs: down directions
  bool operator==(const TreeRowSpec&) const = default;
};

// A tree given row by row; nodes without a row are not in it.
struct TreeSpec {
  int id = 0;
  std::vector<TreeRowSpec> rows;
  bool operator==(const TreeSpec&) const = default;
};

// Cycle counts of the collective subnet's blocks: their AT pipelines (docs/COLLECTIVES.md).
struct CollectiveParams {
  int buffer_flits = 34;          // VCUp and VCDown buffer per port: two largest packets
  int table_cycles = 1;           // VCUp/VCDown: read the tree's routing-table row
  int analysis_cycles = 1;        // VCUp/VCDown: analyse the head flit
  int route_cycles = 1;           // PEGroup: routing block, packet to its sub-block
  int broadcaster_cycles = 1;     // Broadcaster: read header and table row, issue the packet
  int reducer_cycles = 2;         // Reducer: read counter and stored values, then store
  int reducer_flit_cycles = 1;    // Reducer: apply the operation to one data flit
  int reducer_result_cycles = 0;  // Reducer: a result's last flit to its hand-off
  // Flow control of reduces (collectives/subnet/credit_block.h): in flight per tree between a
  // node and its parent and from a processor (at most 16: the header's ReduceId), results per
  // credit packet to the children, and the report of completed reduces to the processor.
  int reduces_in_flight = 16;
  int credit_batch = 8;
  int report_results = 128;
  int report_cycles = 4096;
  int trees = 1;                        // dimension-order trees, TreeId 0 .. trees-1 (0: no subnet)
  std::vector<std::vector<int>> roots;  // their roots' coordinates; default spread evenly
  std::vector<std::vector<int>> transit;  // nodes whose processors take no part (all trees)
  std::vector<TreeSpec> tree;             // trees given row by row, TreeIds after `trees`

  void validate(const TopologyParams& topology) const;
  // The ranges the RTL blocks' fields hold (docs/RTL.md), with rtl.reducer and rtl.vcup not
  // "model": throw a ConfigError naming the key otherwise.
  void check_rtl_reducer() const;
  void check_rtl_vcup() const;
};

// The reduction operations of the collective subnet, on 64-bit signed integers.
enum class Reduction : std::uint8_t { Sum = 0, Min = 1, Max = 2 };

// AT: flit-accurate flow control with credits and buffers. LT: blocking calls through the whole
// network with link reservations and temporal decoupling, for fast sweeps.
enum class SimMode { At, Lt };

struct SimParams {
  SimMode mode = SimMode::At;
  std::uint64_t seed = 1;
  Cycle warmup_cycles = 2000;    // inject, measure nothing
  Cycle measure_cycles = 10000;  // packets created here are the measured ones
  Cycle drain_cycles = 100000;   // keep injecting at most this long for them to arrive
  // A synthetic run already saturated when its window ends (accepted < 90% of offered, or a
  // source queue full) skips the drain: no drain can change that verdict (BookSim ends an
  // unstable run likewise). false: it drains as any run does.
  bool stop_when_saturated = true;
  Cycle watchdog_cycles = 20000;  // no packet delivered for this long with packets in flight: error
  Cycle quantum_cycles = 1000;    // LT global quantum: how far an endpoint runs ahead
  // LT: a timing-only send (its values not carried, host_protocol.h) goes as trains of up to
  // this many packets, one transaction each, that hold every link as long as their packets.
  int train_packets = 1;
  // LT: model the buffers behind every output and their credits (each packet's hold of a
  // buffer, input FIFO order, one packet at a time through a crossbar input), so that LT gives
  // AT's answers under load; false: contention on the channels only, about twice as fast and
  // optimistic wherever buffers limit a stream or a load.
  bool lt_buffers = true;
  bool progress = true;  // progress lines on stderr for long runs
  // Packets one endpoint's source queue holds; past saturation a source stops creating until
  // the queue has room (its packets keep their creation cycles), so memory stays bounded.
  int source_queue_packets = 4096;

  // The timing model has input buffers: AT, or LT with lt_buffers.
  bool buffers() const { return mode == SimMode::At || lt_buffers; }
  void validate() const;
};

// A node's host side (models/node) and PCIe endpoint buffers. Only gflops is from Table 1; the
// software costs and buffer sizes are assumptions of the model (docs/NODE.md).
struct NodeParams {
  double gflops = 140.8;          // compute rate of compute_flops (Table 1 node peak)
  double send_overhead_ns = 100;  // library work per send call, a failed one too
  double recv_overhead_ns = 100;  // library work per receive call, an empty poll too
  int pio_max_bytes = 256;        // longer messages go by DMA, shorter ones by CPU stores
  int tx_buffer_bytes = 16384;    // the endpoint's send buffer, shared by the node's channels
  int rx_ring_bytes = 65536;      // each channel's receive ring in host memory
  int max_message_bytes = 4096;   // a send takes at most this many bytes (the rest: send again)
  int channels = 2;               // message channels (addresses) per node

  void validate() const;
};

enum class PcieEncoding { B8b10b, B128b130b };

// The PCIe link between a node's host and its network adapter (Table 1: gen2 x16, 300 ns).
struct PcieParams {
  int lanes = 16;
  double transfer_gtps = 5.0;                    // per lane: gen2 5 GT/s, gen3 8 GT/s
  PcieEncoding encoding = PcieEncoding::B8b10b;  // gen1/2 8b/10b, gen3+ 128b/130b
  int max_payload_bytes = 256;                   // per TLP
  int tlp_overhead_bytes = 24;                   // header, sequence number, LCRC, framing
  double latency_ns = 300.0;                     // one way (Table 1)

  void validate() const;
};

// What the routers and their endpoints are built from: the fabric's own parameters.
struct FabricParams {
  RouterParams router;
  ChannelParams link;                 // router-to-router links
  ChannelParams endpoint{75.0, 0.0};  // injection and ejection ports of the router
  CollectiveParams collective;
  FaultParams faults;
};

// Rounds cycles up, forgiving the last bits of floating-point error (75 Gbit/s is not exact in
// binary, nor is 100 ns at 500 MHz after a division).
Cycle ceil_cycles(double cycles);
inline Cycle cycles_for_ns(double ns, double clock_mhz) {
  return ceil_cycles(ns * clock_mhz / 1000.0);
}

// Channel timing in whole router cycles, derived once from bandwidth, latency and clock.
struct ChannelTiming {
  Cycle latency = 0;  // wire latency, rounded up to whole cycles
  double cycles_per_flit = 1.0;

  ChannelTiming() = default;
  ChannelTiming(const ChannelParams& channel, double clock_mhz);
  // Cycles to put `flits` flits on the channel, rounded up. More than a packet's are a train
  // (Packet::train) of whole packets back to back, each rounded up as when alone.
  Cycle serialization(int flits) const {
    if (flits <= kMaxPacketFlits) return m_serialization[flits];
    return static_cast<Cycle>(flits / kMaxPacketFlits) * m_serialization[kMaxPacketFlits] +
           m_serialization[flits % kMaxPacketFlits];
  }

 private:
  std::array<Cycle, kMaxPacketFlits + 1> m_serialization{};  // by flits: computed once
};

}  // namespace angara
