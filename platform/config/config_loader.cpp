#include "platform/config/config_loader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "models/core/config_error.h"
#include "platform/config/config_values.h"

namespace angara {
namespace {

using namespace config_values;  // the readers and writers of one value

// One config key: where it lives in the file, how it is read into a Config and written back.
struct KeySpec {
  std::string_view section;
  std::string_view name;
  std::string_view meaning;  // for --help, with units
  void (*read)(Config& config, const toml::node& node, const std::string& key);
  nlohmann::ordered_json (*write)(const Config& config);
  // The values an enumerated key accepts, for --help; empty for the others.
  std::vector<std::string_view> values{};
};

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

// Every key of the config format, in file order; everything else in this file is driven by it.
const std::vector<KeySpec>& key_specs() {
  static const std::vector<KeySpec> specs{
      field<&Config::topology, &TopologyParams::kind>(
          "topology", "kind",
          "torus (dims), or fat_tree (k, levels: k^levels nodes, point-to-point traffic only)"),
      field<&Config::topology, &TopologyParams::dims>(
          "topology", "dims", "torus ring sizes X, Y, Z, W: 1 to 4 dimensions, each >= 2 nodes"),
      field<&Config::topology, &TopologyParams::k>(
          "topology", "k", "fat tree: k-ary, switches of 2k ports (k down, k up), 2..8"),
      field<&Config::topology, &TopologyParams::levels>(
          "topology", "levels", "fat tree: levels of switches, k^(levels-1) switches each"),
      field<&Config::router, &RouterParams::clock_mhz>("router", "clock_mhz",
                                                       "router clock, MHz (Table 1)"),
      field<&Config::router, &RouterParams::routing>(
          "router", "routing",
          "dimension_order, or adaptive (torus: any minimal direction on the adaptive VCs, "
          "direction order on the escape VC 0; dateline: VCs 0 and 1)"),
      direction_order_key(),
      field<&Config::router, &RouterParams::deadlock>(
          "router", "deadlock",
          "ring deadlock avoidance: bubble, dateline (2 VC classes) or none (hangs under load)"),
      field<&Config::router, &RouterParams::vcs>(
          "router", "vcs", "virtual channels per port, 1..8 (dateline: even)"),
      field<&Config::router, &RouterParams::buffer_flits>(
          "router", "buffer_flits", "input buffer per VC, flits of 128 bits (bubble: >= 34)"),
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
          "workload", "op", "the collective operation (allgather: software only)"),
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
          "uniform point-to-point traffic beside the collectives, flits/node/cycle ([traffic])"),
      field<&Config::workload, &WorkloadParams::algorithm>(
          "workload", "algorithm",
          "software collectives and applications: tree (the hardware's tree, a message per "
          "edge), binomial (broadcast), recursive_doubling (allgather) or subnet (the hardware "
          "subnet from the CPUs)"),
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
          "traffic", "pattern", "how each source picks its destinations (docs/TRAFFIC.md)"),
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
      field<&Config::sim, &SimParams::watchdog_cycles>(
          "sim", "watchdog_cycles", "cycles without a delivery, packets in flight: deadlock error"),
      field<&Config::sim, &SimParams::quantum_cycles>(
          "sim", "quantum_cycles", "LT global quantum, cycles an endpoint may run ahead"),
      field<&Config::sim, &SimParams::train_packets>(
          "sim", "train_packets",
          "LT: packets of a timing-only send carried as one transaction (1: each alone)"),
      field<&Config::sim, &SimParams::lt_buffers>(
          "sim", "lt_buffers",
          "LT: model buffers and credits (closer to AT under load, slower); false: links only"),
      field<&Config::sim, &SimParams::progress>("sim", "progress", "progress lines on stderr"),
      field<&Config::stats, &StatsParams::network>(
          "stats", "network",
          "synthetic: per-link, per-VC and per-router statistics over the measurement window, a "
          "summary in the results and CSV files beside them"),
      field<&Config::rtl, &RtlParams::reducer>(
          "rtl", "reducer",
          "the PEGroup's Reducer: model (C++) or rtl (its SystemVerilog, verilated; AT only)"),
      field<&Config::rtl, &RtlParams::vcup>(
          "rtl", "vcup",
          "the routers' VCUp buffers: model (C++) or rtl (its SystemVerilog beside the model, "
          "compared every cycle; AT only)"),
      field<&Config::faults, &FaultParams::links>(
          "faults", "links",
          "failed links, each both ways: [[x, y, ..., \"+X\"], ...] (a node and a direction)"),
      field<&Config::faults, &FaultParams::nodes>(
          "faults", "nodes", "failed nodes: send, receive and route nothing, [[x, y, ...], ...]"),
      field<&Config::faults, &FaultParams::random_links>(
          "faults", "random_links", "share of the torus's links failed at random (sim.seed)"),
      field<&Config::faults, &FaultParams::random_nodes>(
          "faults", "random_nodes", "share of the torus's nodes failed at random (sim.seed)"),
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

// Reads one [section] table, rejecting keys the format does not have.
void read_section(Config& config, std::string_view section, const toml::table& table) {
  std::vector<std::string_view> known;
  for (const auto& spec : key_specs()) {
    if (spec.section == section) known.push_back(spec.name);
  }
  for (const auto& [name, node] : table) {
    const std::string_view leaf = name.str();  // lambdas cannot capture a structured binding
    const std::string key = fmt::format("{}.{}", section, leaf);
    const auto spec = std::find_if(key_specs().begin(), key_specs().end(), [&](const auto& s) {
      return s.section == section && s.name == leaf;
    });
    if (spec == key_specs().end()) {
      throw ConfigError(key, written(node),
                        fmt::format("unknown key; {}known keys in [{}]: {}", key_suggestion(key),
                                    section, fmt::join(known, ", ")));
    }
    spec->read(config, node, key);
  }
}

// [[partition]]: its own keys, and the sections of the machine's config a partition may set.
constexpr std::string_view kPartition = "partition";
constexpr std::array<std::string_view, 4> kPartitionSections{"workload", "traffic", "app",
                                                             "compute"};

bool partition_section(std::string_view section) {
  return std::find(kPartitionSections.begin(), kPartitionSections.end(), section) !=
         kPartitionSections.end();
}

// Reads the [[partition]] tables once the machine's sections are read: each partition's
// workload sections start as the machine's, and its keys override them; its seed is
// sim.seed + its index unless it gives one.
void read_partitions(Config& config, const toml::node& node) {
  const auto* array = node.as_array();
  if (array == nullptr) {
    throw ConfigError(std::string(kPartition), node.is_table() ? "[partition]" : written(node),
                      "expected an array of tables: write each partition as [[partition]]");
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    const std::string prefix = fmt::format("{}[{}]", kPartition, i);
    const auto* table = (*array)[i].as_table();
    if (table == nullptr) wrong_type((*array)[i], prefix, "a table [[partition]] of keys");
    PartitionParams p;
    p.seed = config.sim.seed + i;
    Config own = config;
    for (const auto& [name, value] : *table) {
      const std::string_view leaf = name.str();
      const std::string key = fmt::format("{}.{}", prefix, leaf);
      if (leaf == "origin") {
        read_value(value, key, p.origin);
      } else if (leaf == "dims") {
        read_value(value, key, p.dims);
      } else if (leaf == "seed") {
        read_value(value, key, p.seed);
      } else if (partition_section(leaf)) {
        const auto* section = value.as_table();
        if (section == nullptr) {
          wrong_type(value, key, fmt::format("a table [partition.{}] of keys", leaf));
        }
        try {
          read_section(own, leaf, *section);
        } catch (const ConfigError& e) {
          throw ConfigError(prefix + "." + e.key(), e.value(), e.rule());
        }
      } else {
        throw ConfigError(key, written(value),
                          fmt::format("unknown key; a partition has origin, dims, seed and the "
                                      "tables {} (the machine's other sections are every "
                                      "partition's)",
                                      fmt::join(kPartitionSections, ", ")));
      }
    }
    if (p.origin.empty() || p.dims.empty()) {
      throw ConfigError(fmt::format("{}.{}", prefix, p.origin.empty() ? "origin" : "dims"), "[]",
                        "each partition gives its box: origin = [x, y, ...] (its lowest "
                        "corner) and dims = [...] (its torus's ring sizes)");
    }
    p.workload = own.workload;
    p.traffic = own.traffic;
    p.app = own.app;
    p.compute = own.compute;
    config.partitions.push_back(std::move(p));
  }
}

void read_root(Config& config, const toml::table& root) {
  const auto sections = section_names();
  for (const auto& [name, node] : root) {
    const std::string section(name.str());
    if (section == kPartition) continue;  // after the sections it inherits from
    const auto* table = node.as_table();
    if (std::find(sections.begin(), sections.end(), section) == sections.end()) {
      // Named by its first key, so the message shows the full dotted key as it was written.
      const std::string key = table != nullptr && !table->empty()
                                  ? fmt::format("{}.{}", section, table->begin()->first.str())
                                  : section;
      const auto rule = fmt::format("{}; {}known sections: {}",
                                    table != nullptr ? fmt::format("unknown section [{}]", section)
                                                     : std::string("a key outside any section"),
                                    key_suggestion(key), fmt::join(sections, ", "));
      if (table != nullptr && !table->empty()) {
        throw ConfigError(key, written(table->begin()->second), rule);
      }
      throw ConfigError(section, table != nullptr ? "{}" : written(node), rule);
    }
    if (table == nullptr) wrong_type(node, section, fmt::format("a table [{}] of keys", section));
    read_section(config, section, *table);
  }
  if (const auto* partitions = root.get(kPartition)) read_partitions(config, *partitions);
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Puts "section.key=value" into the parsed file, so it meets the same key and type checks.
void apply_override(toml::table& root, const std::string& text) {
  const auto equals = text.find('=');
  const auto dot = text.find('.');
  const auto section = trimmed(std::string_view(text).substr(0, dot));
  const auto key = dot < equals ? trimmed(std::string_view(text).substr(dot + 1, equals - dot - 1))
                                : std::string_view{};
  if (equals == std::string::npos || section.empty() || key.empty()) {
    throw ConfigError("--set", fmt::format("\"{}\"", text),
                      "expected section.key=value, e.g. traffic.rate=0.5");
  }
  if (section == kPartition) {
    throw ConfigError("--set", fmt::format("\"{}\"", text),
                      "[[partition]] tables are given in the config file, not by --set (a "
                      "partition's standalone config, angara-sim config --partition i, takes any "
                      "--set)");
  }
  const std::string value(trimmed(std::string_view(text).substr(equals + 1)));
  // The value in TOML syntax; a bare word that is not TOML (dateline) is the string itself.
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};
  }
  if (parsed.size() != 1 || !parsed.contains("v")) parsed = toml::table{{"v", value}};

  // A section that is not a table is left as it is, for read_root() to report.
  auto where = root.insert(std::string(section), toml::table{}).first;
  if (auto* table = where->second.as_table()) {
    table->insert_or_assign(std::string(key), *parsed.get("v"));
  }
}

}  // namespace

Config load_config(const std::string& toml_text, const std::string& origin,
                   const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& error) {
    const auto& at = error.source().begin;
    throw ConfigError(ConfigError::Subject::File, origin,
                      fmt::format("line {}, column {}", at.line, at.column),
                      std::string(error.description()));
  }
  for (const auto& text : overrides) apply_override(root, text);
  Config config;
  read_root(config, root);
  config.validate();
  return config;
}

Config load_config_file(const std::filesystem::path& path,
                        const std::vector<std::string>& overrides) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw ConfigError(
        ConfigError::Subject::File, path.string(), "",
        std::filesystem::exists(path, error) ? "not a regular file" : "no such config file");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad())
    throw ConfigError(ConfigError::Subject::File, path.string(), "", "cannot read the config file");
  return load_config(text.str(), path.string(), overrides);
}

nlohmann::ordered_json config_to_json(const Config& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& spec : key_specs()) {
    // Nothing failed: no [faults], so that results from before faults existed stay the same.
    if (spec.section == "faults" && !config.faults.any()) continue;
    // Statistics off: no [stats], so that results from before statistics existed stay the same.
    if (spec.section == "stats" && !config.stats.network) continue;
    out[std::string(spec.section)][std::string(spec.name)] = spec.write(config);
  }
  // Not partitioned: no "partition", so that results from before partitions stay the same.
  if (config.partitions.empty()) return out;
  auto& partitions = out[std::string(kPartition)] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < config.partitions.size(); ++i) {
    const auto& p = config.partitions[i];
    const Config own = config.partition_config(i);
    nlohmann::ordered_json one = {{"origin", p.origin}, {"dims", p.dims}, {"seed", p.seed}};
    for (const auto& spec : key_specs()) {
      if (partition_section(spec.section)) {
        one[std::string(spec.section)][std::string(spec.name)] = spec.write(own);
      }
    }
    partitions.push_back(std::move(one));
  }
  return out;
}

namespace {

// A JSON value of the config in TOML syntax: scalars and arrays as JSON writes them, objects as
// inline tables.
std::string toml_value(const nlohmann::ordered_json& value) {
  if (value.is_object()) {
    std::string out = "{ ";
    for (const auto& [k, v] : value.items())
      out += (out.size() > 2 ? ", " : "") + k + " = " + toml_value(v);
    return out + " }";
  }
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + toml_value(value[i]);
    return out + "]";
  }
  return value.dump();
}

}  // namespace

std::string config_to_toml(const Config& config) {
  const auto json = config_to_json(config);
  std::string out;
  for (const auto& [section, table] : json.items()) {
    if (section == kPartition) {
      // Last in the file: [[partition]] with its keys, then its sections as its subtables.
      for (const auto& p : table) {
        out += "\n[[partition]]\n";
        for (const auto& [key, value] : p.items()) {
          if (!value.is_object()) out += key + " = " + toml_value(value) + "\n";
        }
        for (const auto& [name, keys] : p.items()) {
          if (!keys.is_object()) continue;
          out += "[partition." + name + "]\n";
          for (const auto& [key, value] : keys.items()) {
            out += key + " = " + toml_value(value) + "\n";
          }
        }
      }
      continue;
    }
    out += (out.empty() ? "[" : "\n[") + section + "]\n";
    for (const auto& [key, value] : table.items()) out += key + " = " + toml_value(value) + "\n";
  }
  return out;
}

namespace {

// The [workload] and [app] keys each kind reads (workload.kind itself always).
std::vector<std::string_view> keys_read_by(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Synthetic:
      return {};
    case WorkloadKind::Collective:
      return {"workload.op",          "workload.reduction",
              "workload.tree",        "workload.source",
              "workload.destination", "workload.payload_flits",
              "workload.repetitions", "workload.overlap",
              "workload.all_trees",   "workload.background_rate"};
    case WorkloadKind::MsgRate:
    case WorkloadKind::PingPong:
      return {"workload.peer", "workload.sizes", "workload.messages"};
    case WorkloadKind::Software:
      // overlap, all_trees and background_rate are refused by the run with their own message.
      return {"workload.op",          "workload.reduction",      "workload.tree",
              "workload.source",      "workload.destination",    "workload.payload_flits",
              "workload.repetitions", "workload.algorithm",      "workload.overlap",
              "workload.all_trees",   "workload.background_rate"};
    case WorkloadKind::Spmv:
      return {"workload.algorithm", "workload.repetitions", "app.rows", "app.nonzeros_per_row",
              "app.spmv_mflops"};
    case WorkloadKind::Heat:
      return {"workload.algorithm", "workload.repetitions", "app.grid", "app.heat_gflops",
              "app.flops_per_cell"};
  }
  return {};
}

}  // namespace

std::vector<std::string> unused_keys(const Config& config) {
  const Config defaults;
  const auto read = keys_read_by(config.workload.kind);
  std::vector<std::string> unused;
  for (const auto& spec : key_specs()) {
    if (spec.section != "workload" && spec.section != "app") continue;
    const std::string key = fmt::format("{}.{}", spec.section, spec.name);
    if (key == "workload.kind" || std::find(read.begin(), read.end(), key) != read.end()) continue;
    const auto value = spec.write(config);
    if (value != spec.write(defaults)) unused.push_back(fmt::format("{} = {}", key, value.dump()));
  }
  return unused;
}

std::string config_keys_help() {
  // A default longer than this gets its meaning on the next line, to keep the table narrow.
  constexpr std::size_t kWideDefault = 20;
  const Config defaults;
  std::vector<std::array<std::string, 3>> rows;
  rows.push_back({"key", "default", "meaning"});
  std::size_t key_width = 0;
  std::size_t default_width = 0;
  for (const auto& spec : key_specs()) {
    std::string meaning(spec.meaning);
    if (!spec.values.empty()) meaning += fmt::format("; values: {}", fmt::join(spec.values, ", "));
    rows.push_back(
        {fmt::format("{}.{}", spec.section, spec.name), spec.write(defaults).dump(), meaning});
  }
  for (const auto& row : rows) {
    key_width = std::max(key_width, row[0].size());
    if (row[1].size() <= kWideDefault) default_width = std::max(default_width, row[1].size());
  }
  // [[partition]] tables, one per partition (docs/ARCHITECTURE.md, Partitions).
  rows.push_back({"partition.origin", "-",
                  "[[partition]]: the box's lowest corner [x, y, ...] in the machine's torus"});
  rows.push_back({"partition.dims", "-",
                  "the box's sizes: the partition's own torus (rings re-cabled inside it)"});
  rows.push_back({"partition.seed", "sim.seed+i", "the partition's sim.seed (i: its index)"});
  rows.push_back({fmt::format("partition.{{{}}}", fmt::join(kPartitionSections, ",")), "-",
                  "tables of the partition's own workload keys, over the machine's"});
  std::string out;
  for (const auto& [key, value, meaning] : rows) {
    if (value.size() > default_width) {
      out += fmt::format("{:<{}}  {}\n{:<{}}  {}\n", key, key_width, value, "",
                         key_width + 2 + default_width, meaning);
    } else {
      out += fmt::format("{:<{}}  {:<{}}  {}\n", key, key_width, value, default_width, meaning);
    }
  }
  return out;
}

}  // namespace angara
