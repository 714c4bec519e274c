#include "platform/config/config_keys.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "platform/config/config_values.h"

namespace angara {
namespace {

using namespace config_values;  // the readers and writers of one value

// Reads a key into `config.*Section.*Field`.
template <auto Section, auto Field>
constexpr auto kReadField = [](Config& config, const toml::node& node, const std::string& key) {
  read_value(node, key, config.*Section.*Field);
};

// A key stored in `config.*Section.*Field` and written back as it is; an enum's spellings are
// its values.
template <auto Section, auto Field>
KeySpec field(std::string_view section, std::string_view name, std::string_view meaning) {
  KeySpec spec{section, name, meaning, kReadField<Section, Field>,
               [](const Config& config) { return json_value(config.*Section.*Field); }};
  using Value = std::remove_cvref_t<decltype(std::declval<Config>().*Section.*Field)>;
  if constexpr (std::is_enum_v<Value>) spec.values = spellings<Value>();
  return spec;
}

// trace.blocks: any of the blocks traced by default, which are all of them.
KeySpec trace_blocks_key() {
  KeySpec spec = field<&Config::trace, &TraceParams::blocks>(
      "trace", "blocks", "the blocks traced, a list (default: all)");
  static const TraceParams all;
  spec.values.assign(all.blocks.begin(), all.blocks.end());
  return spec;
}

// Written resolved, so that results show the order actually routed by; a fat tree routes by
// nearest common ancestor and refuses any order, so its [] stays [].
KeySpec direction_order_key() {
  return {"router", "direction_order",
          "direction order: \"X\" = +X then -X, or \"+X\", \"-Y\", ...; [] = +X,-X,+Y,-Y,...",
          kReadField<&Config::router, &RouterParams::direction_order>, [](const Config& config) {
            nlohmann::ordered_json names = nlohmann::ordered_json::array();
            if (!config.topology.torus()) return names;
            const int dims = static_cast<int>(config.topology.dims.size());
            for (auto d : config.router.resolved_direction_order(dims)) names.push_back(d.name());
            return names;
          }};
}

}  // namespace

// Every key of the config format, in file order; everything else in this file is driven by it.
const std::vector<KeySpec>& key_specs() {
  static const std::vector<KeySpec> specs{
      field<&Config::topology, &TopologyParams::kind>(
          "topology", "kind",
          "torus (dims), fat_tree (k, levels: k^levels nodes), or cayley (group, order, "
          "generators); fat_tree and cayley: point-to-point traffic only"),
      field<&Config::topology, &TopologyParams::dims>(
          "topology", "dims", "torus ring sizes X, Y, Z, W: 1 to 4 dimensions, each >= 2 nodes"),
      field<&Config::topology, &TopologyParams::k>(
          "topology", "k", "fat tree: k-ary, switches of 2k ports (k down, k up), 2..8"),
      field<&Config::topology, &TopologyParams::levels>(
          "topology", "levels", "fat tree: levels of switches, k^(levels-1) switches each"),
      field<&Config::topology, &TopologyParams::group>(
          "topology", "group",
          "Cayley graph: its group; circulant = the integers mod order, node i linked to i + s "
          "and i - s for each generator s; star or pancake = the orderings of m symbols, linked "
          "by swapping the first with another or reversing the first 2..m (router.deadlock = "
          "hop_classes)"),
      field<&Config::topology, &TopologyParams::order>(
          "topology", "order",
          "Cayley graph: its nodes; circulant: n of C_n, 2..65536; star, pancake: m! for m = 3..8 "
          "symbols"),
      field<&Config::topology, &TopologyParams::generators>(
          "topology", "generators",
          "circulant: its generators, the steps s, 1 to 8 of them, each giving two "
          "link ports; [1, 8, 64] with order 512 is an 8x8x8 torus with its rings joined into "
          "spirals"),
      field<&Config::router, &RouterParams::clock_mhz>("router", "clock_mhz",
                                                       "router clock, MHz (Table 1)"),
      field<&Config::router, &RouterParams::routing>(
          "router", "routing",
          "dimension_order, or adaptive (torus: any minimal direction on the adaptive VCs, "
          "direction order on the escape VC 0; dateline: VCs 0 and 1)"),
      direction_order_key(),
      field<&Config::router, &RouterParams::deadlock>(
          "router", "deadlock",
          "deadlock avoidance: bubble, dateline (2 VC classes), hop_classes (a Cayley graph: the "
          "h-th hop on VC h, router.vcs at least its diameter) or none (hangs under load)"),
      field<&Config::router, &RouterParams::ties>(
          "router", "ties",
          "the way round an even ring at half its size: positive, source_parity or "
          "destination_parity (positive from or to an even coordinate, else negative), or "
          "random per packet"),
      field<&Config::router, &RouterParams::switching>(
          "router", "switching",
          "vct (virtual cut-through: a packet goes on only when the next buffer holds all of it) "
          "or wormhole (a VC per packet, flits on credits, buffers down to 2 flits; torus: "
          "router.deadlock = dateline or none; dimension_order only)"),
      field<&Config::router, &RouterParams::vcs>(
          "router", "vcs", "virtual channels per port, 1..8 (dateline: even)"),
      field<&Config::router, &RouterParams::buffer_flits>(
          "router", "buffer_flits",
          "input buffer per VC, flits of 128 bits (vct: >= 17, bubble >= 34; wormhole: >= 2)"),
      field<&Config::router, &RouterParams::pipeline_cycles>(
          "router", "pipeline_cycles", "router pipeline, cycles from head in buffer to output"),
      field<&Config::link, &ChannelParams::bandwidth_gbps>(
          "link", "bandwidth_gbps", "router-to-router link bandwidth per direction, Gbit/s"),
      field<&Config::link, &ChannelParams::latency_ns>("link", "latency_ns",
                                                       "router-to-router link latency, ns"),
      field<&Config::endpoint, &ChannelParams::bandwidth_gbps>(
          "endpoint", "bandwidth_gbps", "injection and ejection port bandwidth, Gbit/s"),
      field<&Config::endpoint, &ChannelParams::latency_ns>(
          "endpoint", "latency_ns", "injection and ejection port latency, ns"),
      field<&Config::collective, &CollectiveParams::buffer_flits>(
          "collective", "buffer_flits", "VCUp and VCDown buffer per port, flits"),
      field<&Config::collective, &CollectiveParams::table_cycles>(
          "collective", "table_cycles", "VCUp/VCDown: cycles to read the routing-table row"),
      field<&Config::collective, &CollectiveParams::analysis_cycles>(
          "collective", "analysis_cycles", "VCUp/VCDown: cycles to analyse the head flit"),
      field<&Config::collective, &CollectiveParams::route_cycles>(
          "collective", "route_cycles", "PEGroup routing block, cycles per packet"),
      field<&Config::collective, &CollectiveParams::broadcaster_cycles>(
          "collective", "broadcaster_cycles", "Broadcaster, cycles per packet issued"),
      field<&Config::collective, &CollectiveParams::reducer_cycles>(
          "collective", "reducer_cycles", "Reducer, cycles per packet (read and store a slot)"),
      field<&Config::collective, &CollectiveParams::reducer_flit_cycles>(
          "collective", "reducer_flit_cycles", "Reducer, cycles per data flit combined"),
      field<&Config::collective, &CollectiveParams::reducer_result_cycles>(
          "collective", "reducer_result_cycles",
          "Reducer, cycles from a result's last flit to its hand-off (an output pipeline)"),
      field<&Config::collective, &CollectiveParams::reduces_in_flight>(
          "collective", "reduces_in_flight",
          "reduces of a tree in flight between a node and its parent and from a processor, 1..16"),
      field<&Config::collective, &CollectiveParams::credit_batch>(
          "collective", "credit_batch",
          "results of a tree per credit packet a parent sends its children"),
      field<&Config::collective, &CollectiveParams::report_results>(
          "collective", "report_results", "completed reduces per report to the processor"),
      field<&Config::collective, &CollectiveParams::report_cycles>(
          "collective", "report_cycles",
          "or cycles from the first unreported completion to the report"),
      field<&Config::collective, &CollectiveParams::trees>(
          "collective", "trees", "dimension-order trees, TreeId 0 .. trees-1 (0: no subnet)"),
      field<&Config::collective, &CollectiveParams::roots>(
          "collective", "roots",
          "their roots' coordinates, [[x, y, ...], ...]; [] = spread evenly"),
      field<&Config::collective, &CollectiveParams::transit>(
          "collective", "transit", "transit nodes (processor takes no part), [[x, y, ...], ...]"),
      field<&Config::collective, &CollectiveParams::tree>(
          "collective", "tree", "trees given row by row: [[collective.tree]] id, rows = [...]"),
      field<&Config::workload, &WorkloadParams::kind>(
          "workload", "kind",
          "what runs: synthetic traffic ([traffic]), hardware subnet collectives, message "
          "benchmarks, software collectives or applications (CPU programs over the message API: "
          "[node], [app])"),
      field<&Config::workload, &WorkloadParams::op>(
          "workload", "op", "the collective operation (allgather, reduce_scatter: software only)"),
      field<&Config::workload, &WorkloadParams::reduction>("workload", "reduction",
                                                           "the reduce operation, per 64-bit word"),
      field<&Config::workload, &WorkloadParams::tree>("workload", "tree",
                                                      "TreeId of the operation"),
      field<&Config::workload, &WorkloadParams::source>(
          "workload", "source", "broadcast source node [x, y, ...]; [] = the tree's root"),
      field<&Config::workload, &WorkloadParams::destination>(
          "workload", "destination", "reduce result's node [x, y, ...]; [] = the tree's root"),
      field<&Config::workload, &WorkloadParams::payload_flits>(
          "workload", "payload_flits", "data flits per collective packet, 1..16"),
      field<&Config::workload, &WorkloadParams::repetitions>(
          "workload", "repetitions", "operations, each started when the previous completed"),
      field<&Config::workload, &WorkloadParams::overlap>(
          "workload", "overlap", "start all operations at once (16 reduces per tree in flight)"),
      field<&Config::workload, &WorkloadParams::all_trees>(
          "workload", "all_trees", "run each operation on every tree at once"),
      field<&Config::workload, &WorkloadParams::background_rate>(
          "workload", "background_rate",
          "uniform point-to-point traffic beside the collectives, or beside an embedded "
          "machine's user ports from the nodes without one, flits/node/cycle ([traffic])"),
      field<&Config::workload, &WorkloadParams::algorithm>(
          "workload", "algorithm",
          "software collectives and applications: tree (the hardware's tree, a message per "
          "edge), binomial (broadcast), chain and pipelined_tree (pipelined broadcasts), ring "
          "(broadcast, allreduce, allgather, reduce_scatter), recursive_doubling (allreduce, "
          "allgather), "
          "rabenseifner (allreduce, reduce_scatter), dimensional and ring_subnet (allreduce) or "
          "subnet (the hardware subnet from the CPUs); docs/COLLECTIVE_DESIGNS.md"),
      field<&Config::workload, &WorkloadParams::bytes>(
          "workload", "bytes",
          "software collectives: bytes of the operation (allgather: of each rank's block), a "
          "multiple of 8 up to 64 MiB; 0 = payload_flits x 16"),
      field<&Config::workload, &WorkloadParams::segment_bytes>(
          "workload", "segment_bytes",
          "software chain and pipelined_tree broadcasts: bytes per pipelined segment"),
      field<&Config::workload, &WorkloadParams::subnet_trees>(
          "workload", "subnet_trees",
          "software broadcast, reduce and allreduce over the subnet: cut across trees tree .. "
          "tree + subnet_trees - 1, their packets in turn"),
      field<&Config::workload, &WorkloadParams::values>(
          "workload", "values",
          "software collectives: carry and check the values; false = messages timed by their "
          "lengths alone (not for tree and binomial)"),
      field<&Config::workload, &WorkloadParams::peer>(
          "workload", "peer", "msgrate/pingpong rank 1 [x, y, ...]; [] = node 0's +X neighbour"),
      field<&Config::workload, &WorkloadParams::sizes>("workload", "sizes",
                                                       "msgrate/pingpong message sizes, bytes"),
      field<&Config::workload, &WorkloadParams::messages>(
          "workload", "messages", "msgrate: messages per size; pingpong: round trips per size"),
      field<&Config::node, &NodeParams::gflops>("node", "gflops",
                                                "CPU compute rate, GFlop/s (Table 1 peak: 140.8)"),
      field<&Config::node, &NodeParams::send_overhead_ns>(
          "node", "send_overhead_ns", "library time per send call, ns (assumption)"),
      field<&Config::node, &NodeParams::recv_overhead_ns>(
          "node", "recv_overhead_ns", "library time per receive call or empty poll, ns"),
      field<&Config::node, &NodeParams::pio_max_bytes>(
          "node", "pio_max_bytes", "messages up to this size are CPU stores, longer ones DMA"),
      field<&Config::node, &NodeParams::tx_buffer_bytes>(
          "node", "tx_buffer_bytes", "PCIe endpoint send buffer, bytes (a send takes what fits)"),
      field<&Config::node, &NodeParams::rx_ring_bytes>(
          "node", "rx_ring_bytes", "receive ring per channel in host memory, bytes"),
      field<&Config::node, &NodeParams::max_message_bytes>(
          "node", "max_message_bytes", "largest message one send makes, bytes (16..65536)"),
      field<&Config::node, &NodeParams::channels>("node", "channels",
                                                  "message channels (addresses) per node"),
      field<&Config::app, &AppParams::rows>("app", "rows", "spmv: matrix rows N (equal blocks)"),
      field<&Config::app, &AppParams::nonzeros_per_row>("app", "nonzeros_per_row",
                                                        "spmv: non-zeros per row, d"),
      field<&Config::app, &AppParams::spmv_mflops>("app", "spmv_mflops",
                                                   "spmv: one node's rate, MFlop/s (spec: 591)"),
      field<&Config::app, &AppParams::grid>("app", "grid", "heat: cells along x and y [nx, ny]"),
      field<&Config::app, &AppParams::heat_gflops>("app", "heat_gflops",
                                                   "heat: one node's rate, GFlop/s (spec: 11)"),
      field<&Config::app, &AppParams::flops_per_cell>(
          "app", "flops_per_cell", "heat: flops per cell and step (assumption, REPORT.md)"),
      field<&Config::compute, &ComputeParams::model>(
          "compute", "model",
          "spmv/heat compute time: flat (app's rate), roofline, or table (docs/NODE.md)"),
      field<&Config::compute, &ComputeParams::memory_gbps>(
          "compute", "memory_gbps", "roofline: memory bandwidth, GB/s (triad, one socket)"),
      field<&Config::compute, &ComputeParams::cache_gbps>(
          "compute", "cache_gbps", "roofline: L3 bandwidth, GB/s, for blocks that fit in it"),
      field<&Config::compute, &ComputeParams::cache_mib>(
          "compute", "cache_mib", "roofline: L3 size, MiB (Table 1: 20); 0: always memory"),
      field<&Config::compute, &ComputeParams::region_overhead_ns>(
          "compute", "region_overhead_ns",
          "roofline: fork and join per parallel region, ns (no published figure: 0)"),
      field<&Config::compute, &ComputeParams::table>(
          "compute", "table",
          "table: CSV of work_size,time_ns (rows for spmv, cells for heat), linear between"),
      field<&Config::pcie, &PcieParams::lanes>("pcie", "lanes", "PCIe lanes (Table 1: x16)"),
      field<&Config::pcie, &PcieParams::transfer_gtps>(
          "pcie", "transfer_gtps", "transfer rate per lane, GT/s (gen2: 5, gen3: 8)"),
      field<&Config::pcie, &PcieParams::encoding>("pcie", "encoding",
                                                  "line code: 8b10b (gen1/2) or 128b130b"),
      field<&Config::pcie, &PcieParams::max_payload_bytes>(
          "pcie", "max_payload_bytes", "largest TLP payload, bytes (128..4096)"),
      field<&Config::pcie, &PcieParams::tlp_overhead_bytes>("pcie", "tlp_overhead_bytes",
                                                            "bytes per TLP beside the payload"),
      field<&Config::pcie, &PcieParams::latency_ns>("pcie", "latency_ns",
                                                    "one-way latency, ns (Table 1: 300)"),
      field<&Config::trace, &TraceParams::nodes>(
          "trace", "nodes", "nodes whose blocks are traced, [[x, y, ...], ...] (AT only)"),
      trace_blocks_key(),
      field<&Config::trace, &TraceParams::file>(
          "trace", "file",
          "the VCD file written, with a GTKWave save file (.gtkw) and the stage names "
          "(.stages.txt) beside it"),
      field<&Config::traffic, &TrafficParams::pattern>(
          "traffic", "pattern",
          "how each source picks its destinations (docs/TRAFFIC.md); BookSim's bitcomp, bitrev, "
          "randperm and neighbor are read as bit_complement, bit_reverse, random_permutation and "
          "neighbour"),
      field<&Config::traffic, &TrafficParams::injection>(
          "traffic", "injection",
          "when packets are created: bernoulli (a coin per cycle), poisson or on_off (bursts)"),
      field<&Config::traffic, &TrafficParams::rate>(
          "traffic", "rate", "offered load, flits (header + data) per node per cycle, 0..1"),
      field<&Config::traffic, &TrafficParams::packet_flits>(
          "traffic", "packet_flits", "data flits per packet, 1..16 (plus one header flit)"),
      field<&Config::traffic, &TrafficParams::message_flits>(
          "traffic", "message_flits",
          "data flits per message, split into packets of 16 (0 = one packet of packet_flits)"),
      field<&Config::traffic, &TrafficParams::bimodal_flits>(
          "traffic", "bimodal_flits",
          "two message lengths [first, second] in data flits; [] = one length"),
      field<&Config::traffic, &TrafficParams::bimodal_fraction>(
          "traffic", "bimodal_fraction", "share of packets with the first bimodal length"),
      field<&Config::traffic, &TrafficParams::local_rate>(
          "traffic", "local_rate", "local: share of packets to a node within local_distance"),
      field<&Config::traffic, &TrafficParams::local_distance>("traffic", "local_distance",
                                                              "local: at most this many hops away"),
      field<&Config::traffic, &TrafficParams::hotspot_rate>(
          "traffic", "hotspot_rate", "hotspot: share of each node's packets to hotspot_node"),
      field<&Config::traffic, &TrafficParams::hotspot_node>(
          "traffic", "hotspot_node", "hotspot: the hot node [x, y, ...]; [] = node 0"),
      field<&Config::traffic, &TrafficParams::probes>(
          "traffic", "probes",
          "probe messages from probe_src to probe_dst beside the load, measured apart (0: none)"),
      field<&Config::traffic, &TrafficParams::probe_src>("traffic", "probe_src",
                                                         "the probe pair's source [x, y, ...]"),
      field<&Config::traffic, &TrafficParams::probe_dst>(
          "traffic", "probe_dst", "the probe pair's destination [x, y, ...]"),
      field<&Config::traffic, &TrafficParams::fft_rows>(
          "traffic", "fft_rows", "fft3d: rows of the process grid (process i on node i)"),
      field<&Config::traffic, &TrafficParams::fft_cols>("traffic", "fft_cols",
                                                        "fft3d: columns of the process grid"),
      field<&Config::traffic, &TrafficParams::fft_phase>(
          "traffic", "fft_phase", "fft3d: 1 all-to-all within a row, 2 within a column"),
      field<&Config::traffic, &TrafficParams::burst_cycles>("traffic", "burst_cycles",
                                                            "on_off: mean cycles of a burst"),
      field<&Config::traffic, &TrafficParams::idle_cycles>("traffic", "idle_cycles",
                                                           "on_off: mean cycles between bursts"),
      field<&Config::sim, &SimParams::mode>("sim", "mode",
                                            "timing mode: at (approximately timed) or lt"),
      field<&Config::sim, &SimParams::seed>("sim", "seed", "random seed of the traffic"),
      field<&Config::sim, &SimParams::warmup_cycles>("sim", "warmup_cycles",
                                                     "router cycles of injection before measuring"),
      field<&Config::sim, &SimParams::measure_cycles>("sim", "measure_cycles",
                                                      "router cycles whose packets are measured"),
      field<&Config::sim, &SimParams::drain_cycles>(
          "sim", "drain_cycles", "at most this many more cycles for measured packets to arrive"),
      field<&Config::sim, &SimParams::stop_when_saturated>(
          "sim", "stop_when_saturated",
          "synthetic traffic: a run saturated when its window ends (accepted < 90% of offered, or "
          "a source queue full) skips the drain and ends with that verdict; false: it drains "
          "as any run does"),
      field<&Config::sim, &SimParams::watchdog_cycles>(
          "sim", "watchdog_cycles", "cycles without a delivery, packets in flight: deadlock error"),
      field<&Config::sim, &SimParams::quantum_cycles>(
          "sim", "quantum_cycles", "LT global quantum, cycles an endpoint may run ahead"),
      field<&Config::sim, &SimParams::train_packets>(
          "sim", "train_packets",
          "LT: packets of a timing-only send carried as one transaction (1: each alone)"),
      field<&Config::sim, &SimParams::lt_buffers>(
          "sim", "lt_buffers",
          "LT: model buffers and credits, for AT's answers under load; false: links only (about "
          "twice as fast, optimistic where buffers limit)"),
      field<&Config::sim, &SimParams::progress>("sim", "progress", "progress lines on stderr"),
      field<&Config::sim, &SimParams::source_queue_packets>(
          "sim", "source_queue_packets",
          "packets a node's source queue holds; a full queue stops its source creating "
          "(results say so)"),
      field<&Config::stats, &StatsParams::network>(
          "stats", "network",
          "synthetic: per-link, per-VC and per-router statistics over the measurement window, a "
          "summary in the results and CSV files beside them"),
      field<&Config::stats, &StatsParams::interval_cycles>(
          "stats", "interval_cycles",
          "synthetic: offered and accepted load, latency and outstanding packets per interval of "
          "this many cycles, over the whole run, as a CSV beside the results (0: off)"),
      field<&Config::rtl, &RtlParams::reducer>(
          "rtl", "reducer",
          "the PEGroup's Reducer: model (C++), check (its SystemVerilog, verilated, compared "
          "with the model every cycle) or drive (the SystemVerilog's timing drives the PEGroup, "
          "its values compared); AT only"),
      field<&Config::rtl, &RtlParams::vcup>(
          "rtl", "vcup",
          "the routers' VCUp buffers: model (C++), check (its SystemVerilog beside the model, "
          "compared every cycle) or drive (the SystemVerilog says when each packet asks for its "
          "copies and frees its space, its destinations compared); AT only"),
      field<&Config::faults, &FaultParams::links>(
          "faults", "links",
          "failed links, each both ways: [[x, y, ..., \"+X\"], ...] (a node and a direction)"),
      field<&Config::faults, &FaultParams::nodes>(
          "faults", "nodes", "failed nodes: send, receive and route nothing, [[x, y, ...], ...]"),
      field<&Config::faults, &FaultParams::random_links>(
          "faults", "random_links", "share of the torus's links failed at random (sim.seed)"),
      field<&Config::faults, &FaultParams::random_nodes>(
          "faults", "random_nodes", "share of the torus's nodes failed at random (sim.seed)"),
      field<&Config::faults, &FaultParams::fail_at_cycle>(
          "faults", "fail_at_cycle",
          "the cycle the links fail at (0: from the start); synthetic traffic only. A packet "
          "already on a failing link arrives; one that would start on it later is rerouted"),
  };
  return specs;
}

std::vector<std::string_view> section_names() {
  std::vector<std::string_view> names;
  for (const auto& spec : key_specs()) {
    if (names.empty() || names.back() != spec.section) names.push_back(spec.section);
  }
  return names;
}

// Every key as "section.name", in file order.
const std::vector<std::string_view>& dotted_keys() {
  static const auto keys = [] {
    static std::vector<std::string> storage;
    for (const auto& spec : key_specs())
      storage.push_back(fmt::format("{}.{}", spec.section, spec.name));
    return std::vector<std::string_view>(storage.begin(), storage.end());
  }();
  return keys;
}

// "did you mean router.buffer_flits? " for a slip of a key, written dotted or as a bare name.
std::string key_suggestion(std::string_view key) {
  if (key.find('.') != std::string_view::npos) return suggestion(key, dotted_keys());
  std::vector<std::string_view> names;
  for (const auto& spec : key_specs()) names.push_back(spec.name);
  const auto best = nearest(key, names);
  if (best.empty()) return {};
  const auto spec = std::find_if(key_specs().begin(), key_specs().end(),
                                 [&](const auto& s) { return s.name == best; });
  return fmt::format("did you mean {}.{}? ", spec->section, spec->name);
}

}  // namespace angara
