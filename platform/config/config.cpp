#include "platform/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <bit>

#include "models/core/config_error.h"
#include "models/core/zero_load.h"
#include "models/topology/topology.h"
#include "platform/config/config_values.h"

namespace angara {

bool TraceParams::traces(const std::string& block) const {
  return std::find(blocks.begin(), blocks.end(), block) != blocks.end();
}

bool TraceParams::kind_traces(WorkloadKind kind) {
  return kind == WorkloadKind::Synthetic || kind == WorkloadKind::Collective;
}

void TraceParams::validate(const TopologyParams& topology, SimMode mode, WorkloadKind kind) const {
  if (!on()) {
    // Nothing is recorded, so a file named here would never be written: refused rather than
    // silently ignored. The default name is what every untraced config written out holds.
    if (file != TraceParams{}.file) {
      throw ConfigError("trace.file", config_values::json_value(file).dump(),
                        "names the VCD file a traced run writes, but trace.nodes, which selects "
                        "the nodes traced, is empty: nothing would be written; give trace.nodes "
                        "= [[x, y, ...]] or leave trace.file out");
    }
    return;
  }
  // The CPU programs' experiments never write the file: refused rather than silently dropped.
  if (!kind_traces(kind)) {
    throw ConfigError("trace.nodes", fmt::format("{} nodes", nodes.size()),
                      fmt::format("waveforms are recorded for workload.kind = \"synthetic\" and "
                                  "\"collective\" only (here {}): leave [trace] out",
                                  config_values::json_value(kind).dump()));
  }
  if (mode != SimMode::At) {
    throw ConfigError("trace.nodes", fmt::format("{} nodes", nodes.size()),
                      "waveforms are drawn from the AT model: set sim.mode = \"at\"");
  }
  for (const auto& n : nodes) topology.check_node("trace.nodes", n);
  const TraceParams all;
  if (blocks.empty()) {
    throw ConfigError("trace.blocks", "[]",
                      fmt::format("names no block, so the nodes traced would record nothing: "
                                  "name some of {}, or leave the key out for all",
                                  fmt::join(all.blocks, ", ")));
  }
  for (const auto& b : blocks) {
    if (!all.traces(b)) {
      throw ConfigError("trace.blocks", "\"" + b + "\"",
                        fmt::format("unknown block; known: {}", fmt::join(all.blocks, ", ")));
    }
  }
  if (file.empty()) throw ConfigError("trace.file", "\"\"", "name the VCD file to write");
}

void RtlParams::validate(SimMode mode, const CollectiveParams& collective) const {
  const auto value = [](BlockImpl b) { return config_values::json_value(b).dump(); };
  if (vcup != BlockImpl::Model) {
    if (mode != SimMode::At) {
      throw ConfigError("rtl.vcup", value(vcup),
                        "the RTL VCUp is clocked beside AT's routers, so it runs in AT only: set "
                        "sim.mode = \"at\" or rtl.vcup = \"model\"");
    }
    collective.check_rtl_vcup();
  }
  if (reducer != BlockImpl::Model) {
    if (mode != SimMode::At) {
      throw ConfigError("rtl.reducer", value(reducer),
                        "the RTL Reducer is clocked, so it runs in AT only: set sim.mode = \"at\" "
                        "or rtl.reducer = \"model\"");
    }
    collective.check_rtl_reducer();
  }
}

void Config::validate_off_torus() const {
  const bool fat_tree = topology.kind == TopologyKind::FatTree;
  const std::string a = fat_tree ? "a fat tree" : "a Cayley graph";
  const std::string kind = config_values::json_value(topology.kind).dump();
  const auto refuse = [&](const std::string& key, const std::string& value,
                          const std::string& why) {
    throw ConfigError(key, value, why + " (topology.kind = " + kind + "): use a torus");
  };
  if (workload.kind != WorkloadKind::Synthetic) {
    refuse("workload.kind", config_values::json_value(workload.kind).dump(),
           a + " runs synthetic traffic only; the collective subnet and the nodes' CPUs are the "
               "torus's");
  }
  if (!collective.roots.empty() || !collective.transit.empty() || !collective.tree.empty()) {
    refuse("collective", "roots, transit or tree", a + " has no collective subnet");
  }
  if (!router.direction_order.empty()) {
    refuse("router.direction_order", "not []",
           fat_tree ? "a fat tree routes by nearest common ancestor"
                    : "a Cayley graph routes by its generators in the order given");
  }
  if (router.adaptive()) {
    refuse("router.routing", "\"adaptive\"",
           fat_tree ? "a fat tree's up paths are spread at random already; adaptive routing is "
                      "the torus's"
                    : "adaptive routing is the torus's");
  }
  if (fat_tree && (router.deadlock == DeadlockScheme::Dateline ||
                   router.deadlock == DeadlockScheme::HopClasses)) {
    refuse("router.deadlock", config_values::json_value(router.deadlock).dump(),
           "a fat tree's up/down routes need no deadlock scheme");
  }
  if (!fat_tree) validate_cayley_deadlock();
  if (trace.on()) refuse("trace.nodes", "not []", "waveforms are drawn for torus routers");
  if (rtl.any()) refuse("rtl", "\"rtl\"", "the RTL blocks are the collective subnet's");
  if (router.ties != TieRule::Positive) {
    refuse("router.ties", config_values::json_value(router.ties).dump(),
           fat_tree ? "a fat tree has no rings to go round either way"
                    : "a Cayley graph takes +s before -s where both are shortest");
  }
}

// A star or pancake graph has no rings for the bubble or a dateline; hop classes need a VC for
// each hop of the longest route.
void Config::validate_cayley_deadlock() const {
  const std::string scheme = config_values::json_value(router.deadlock).dump();
  const int hops = diameter(topology);
  const bool rings = topology.group == CayleyGroup::Circulant;
  if (!rings &&
      (router.deadlock == DeadlockScheme::Bubble || router.deadlock == DeadlockScheme::Dateline)) {
    throw ConfigError("router.deadlock", scheme,
                      fmt::format("a star or pancake graph has no rings for the bubble or a "
                                  "dateline: use \"hop_classes\" with router.vcs = {} (its "
                                  "diameter, {} hops, rounded up to a power of two)",
                                  std::bit_ceil(static_cast<unsigned>(hops)), hops));
  }
  if (router.deadlock == DeadlockScheme::HopClasses && router.vcs < hops) {
    throw ConfigError(
        "router.vcs", fmt::format("{}", router.vcs),
        hops > kMaxVcs
            ? fmt::format("hop classes need a VC for each hop of the longest route, {} on this "
                          "graph, and a port has at most {}: use fewer symbols or nodes",
                          hops, kMaxVcs)
            : fmt::format("hop classes need a VC for each hop of the longest route: at least "
                          "{} (the graph's diameter), a power of two",
                          hops));
  }
}

// What wormhole switching cannot combine with, each refused naming both keys.
void Config::validate_wormhole() const {
  const auto refuse = [](const std::string& key, const std::string& value, const std::string& why) {
    throw ConfigError(key, value, why + " (router.switching = \"wormhole\")");
  };
  // On a torus the bubble keeps an empty buffer in every ring (models/router/ring_budget.h), so
  // a ring must hold a largest packet packed and one buffer more. A circulant's rings have no
  // such count: the dateline's acyclic channel dependencies hold for wormhole there. A fat tree's
  // up/down routes need neither (bubble and none: no effect there).
  if (router.deadlock == DeadlockScheme::Bubble && topology.torus()) {
    const int ring = *std::min_element(topology.dims.begin(), topology.dims.end());
    const int spans = (kMaxPacketFlits + router.buffer_flits - 1) / router.buffer_flits;
    if (spans > ring - 1) {
      refuse("router.buffer_flits", fmt::format("{}", router.buffer_flits),
             fmt::format("under the bubble a ring keeps one of its buffers empty, so a largest "
                         "packet ({} flits) must fit in the other {} of the shortest ring ({} "
                         "routers): it spans {} buffers of {} flits; use at least {} flits or "
                         "router.deadlock = \"dateline\"",
                         kMaxPacketFlits, ring - 1, ring, spans, router.buffer_flits,
                         (kMaxPacketFlits + ring - 2) / (ring - 1)));
    }
  }
  if (router.deadlock == DeadlockScheme::Bubble && topology.kind == TopologyKind::Cayley) {
    refuse("router.deadlock", "\"bubble\"",
           "a circulant's rings keep no empty buffer under wormhole: use router.deadlock = "
           "\"dateline\"");
  }
  if (sim.train_packets > 1) {
    refuse("sim.train_packets", fmt::format("{}", sim.train_packets),
           "LT trains stream whole packets through the credit loop: set it to 1");
  }
  if (stats.network) {
    refuse("stats.network", "true",
           "network statistics count buffer occupancy of whole packets: set it to false");
  }
  if (trace.on()) {
    refuse("trace.nodes", "not []", "waveforms trace whole packets in buffers: trace a vct run");
  }
  // Failing during a run reroutes a head with its packet behind it in one buffer; a worm's flits
  // are spread over several.
  if (faults.fail_at_cycle > 0) {
    refuse("faults.fail_at_cycle", fmt::format("{}", faults.fail_at_cycle),
           "links failing during a run reroute packets held whole in one buffer: fail them from "
           "the start (0)");
  }
}

void StatsParams::validate(WorkloadKind kind, const SimParams& sim) const {
  if (network && kind != WorkloadKind::Synthetic) {
    throw ConfigError("stats.network", "true",
                      fmt::format("network statistics are measured over the measurement window of "
                                  "workload.kind = \"synthetic\" only (here {})",
                                  config_values::json_value(kind).dump()));
  }
  if (interval_cycles == 0) return;
  const std::string value = fmt::format("{}", interval_cycles);
  if (kind != WorkloadKind::Synthetic) {
    throw ConfigError("stats.interval_cycles", value,
                      fmt::format("traffic over time is counted for workload.kind = "
                                  "\"synthetic\" only (here {}); 0 turns it off",
                                  config_values::json_value(kind).dump()));
  }
  // A row per interval: a table a plot can draw and a person can read.
  const Cycle span = sim.warmup_cycles + sim.measure_cycles;
  if (interval_cycles > kMaxRunCycles || span / interval_cycles > kMaxIntervals) {
    throw ConfigError("stats.interval_cycles", value,
                      fmt::format("must be from {} to {} cycles: at most {} intervals over the "
                                  "warm-up and window (sim.warmup_cycles + sim.measure_cycles = "
                                  "{}); 0 turns it off",
                                  (span + kMaxIntervals - 1) / kMaxIntervals, kMaxRunCycles,
                                  kMaxIntervals, span));
  }
}

Cycle Config::first_delivery_floor() const {
  const ZeroLoad zero_load(fabric());
  const int hops = diameter(topology);
  Cycle floor = zero_load.latency(hops, kMaxPacketFlits);
  const double mhz = router.clock_mhz;
  switch (workload.kind) {
    case WorkloadKind::Synthetic:
      break;
    case WorkloadKind::Collective:
      // Every router on the way reads its routing-table row and analyses the head.
      floor += static_cast<Cycle>(hops + 1) *
               static_cast<Cycle>(collective.table_cycles + collective.analysis_cycles);
      break;
    default:
      // A message: the send call, then the PCIe link to the adapter and from it at the far end.
      floor += cycles_for_ns(node.send_overhead_ns, mhz) + 2 * cycles_for_ns(pcie.latency_ns, mhz);
      break;
  }
  return floor;
}

RouterParams Config::routed() const {
  RouterParams r = router;
  r.route_phases = faults.any() ? 2 : 1;
  return r;
}

namespace {

// An error found in partition `index`'s standalone config, named as the partitioned file names
// it: its own keys under partition[index], the machine's keys as they are, said to be in it.
ConfigError in_partition(const ConfigError& e, std::size_t index, const PartitionParams& p) {
  const std::string prefix = fmt::format("partition[{}]", index);
  const std::string& key = e.key();
  if (e.subject() == ConfigError::Subject::Key) {
    for (const char* own : {"workload.", "traffic.", "app.", "compute."}) {
      if (key.starts_with(own)) return ConfigError(prefix + "." + key, e.value(), e.rule());
    }
    if (key == "topology.dims") return ConfigError(prefix + ".dims", e.value(), e.rule());
    if (key == "sim.seed") return ConfigError(prefix + ".seed", e.value(), e.rule());
  }
  return ConfigError(e.subject(), key, e.value(),
                     fmt::format("in {} ({}): {}", prefix, p.box(), e.rule()));
}

}  // namespace

Config Config::partition_config(std::size_t index) const {
  const PartitionParams& p = partitions.at(index);
  Config c = *this;
  c.partitions.clear();
  c.topology.dims = p.dims;
  c.sim.seed = p.seed;
  c.workload = p.workload;
  c.traffic = p.traffic;
  c.app = p.app;
  c.compute = p.compute;
  return c;
}

int Config::idle_nodes() const {
  if (partitions.empty()) return 0;
  int busy = 0;
  for (const auto& p : partitions) busy += p.node_count();
  return topology.node_count() - busy;
}

void Config::validate_partitions() const {
  topology.validate();
  const auto refuse = [](const std::string& key, const std::string& value, const std::string& why) {
    throw ConfigError(key, value,
                      why +
                          "; it cannot combine with [[partition]]: leave it out, or give "
                          "it in a partition's standalone config (angara-sim config "
                          "--partition i)");
  };
  if (!topology.torus()) {
    refuse("topology.kind", config_values::json_value(topology.kind).dump(),
           "partitions are boxes of a torus whose rings are re-cabled inside each box");
  }
  if (faults.any()) {
    refuse("faults", "failed links or nodes",
           "failed elements are placed on the machine's torus and routed around on it");
  }
  if (trace.on()) {
    refuse("trace.nodes", fmt::format("{} nodes", trace.nodes.size()),
           "waveforms are recorded in one torus's kernel, and each partition runs in its own");
  }
  if (stats.network) {
    refuse("stats.network", "true",
           "network statistics are tables of one torus's routers, and each partition runs in "
           "its own");
  }
  if (!collective.roots.empty() || !collective.transit.empty() || !collective.tree.empty()) {
    refuse(!collective.roots.empty()     ? "collective.roots"
           : !collective.transit.empty() ? "collective.transit"
                                         : "collective.tree",
           "not []", "trees are given in one torus's coordinates, and each partition is a torus");
  }
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    partitions[i].check_box(topology, i);
    for (std::size_t j = 0; j < i; ++j) {
      if (partitions[i].overlaps(partitions[j])) {
        throw ConfigError(fmt::format("partition[{}]", i), partitions[i].box(),
                          fmt::format("overlaps partition[{}] ({}): partitions are disjoint "
                                      "boxes of the machine (nodes in none stay idle)",
                                      j, partitions[j].box()));
      }
    }
  }
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    try {
      partition_config(i).validate();
    } catch (const ConfigError& e) {
      throw in_partition(e, i, partitions[i]);
    }
  }
}

void Config::validate() const {
  if (!partitions.empty()) {
    validate_partitions();
    return;
  }
  topology.validate();
  faults.validate(topology);
  if (!topology.torus()) validate_off_torus();
  if (topology.torus() && router.deadlock == DeadlockScheme::HopClasses) {
    throw ConfigError("router.deadlock", "\"hop_classes\"",
                      "hop classes are a Cayley graph's (topology.kind = \"cayley\"): a torus "
                      "uses \"bubble\" or \"dateline\"");
  }
  const int dims = topology.torus() ? static_cast<int>(topology.dims.size()) : 1;
  routed().validate(dims);
  if (router.wormhole()) validate_wormhole();
  // A detour around failures is planned per source and destination, so it must know the way
  // each packet takes at a tie.
  if (router.ties == TieRule::Random && faults.any()) {
    throw ConfigError("router.ties", "\"random\"",
                      "detours around failed links and nodes ([faults]) are planned per source "
                      "and destination, and a random way is drawn per packet: use "
                      "\"source_parity\" or \"destination_parity\"");
  }
  // Synthetic traffic never picks a failed node and the subnet's trees leave them out; the CPU
  // programs (message benchmarks, software collectives, applications) run a rank on every node.
  const bool failed_nodes = !faults.nodes.empty() || faults.random_nodes > 0;
  if (failed_nodes && workload.kind != WorkloadKind::Synthetic &&
      workload.kind != WorkloadKind::Collective) {
    throw ConfigError(faults.nodes.empty() ? "faults.random_nodes" : "faults.nodes",
                      faults.nodes.empty() ? fmt::format("{}", faults.random_nodes)
                                           : fmt::format("{} nodes", faults.nodes.size()),
                      fmt::format("failed nodes are routed around for workload.kind = "
                                  "\"synthetic\" and \"collective\" only (here {}, which runs a "
                                  "rank on every node); fail links instead",
                                  config_values::json_value(workload.kind).dump()));
  }
  // A link failing mid-run reroutes point-to-point packets; the subnet's trees are laid once,
  // and the CPU programs' messages are not rerouted either.
  if (faults.fail_at_cycle > 0 && workload.kind != WorkloadKind::Synthetic) {
    throw ConfigError("faults.fail_at_cycle", fmt::format("{}", faults.fail_at_cycle),
                      fmt::format("links fail during a run for workload.kind = \"synthetic\" "
                                  "only (here {}): leave it out to fail the links from the "
                                  "start, or run synthetic traffic",
                                  config_values::json_value(workload.kind).dump()));
  }
  if (failed_nodes && workload.kind == WorkloadKind::Collective && workload.background_rate > 0) {
    throw ConfigError("workload.background_rate", fmt::format("{}", workload.background_rate),
                      "the collectives' background traffic runs on every node, and [faults] "
                      "fails nodes: set it to 0, or fail links only");
  }
  link.validate("link");
  endpoint.validate("endpoint");
  collective.validate(topology);
  workload.validate(topology, collective);
  traffic.validate(topology);
  sim.validate();
  rtl.validate(sim.mode, collective);
  trace.validate(topology, sim.mode, workload.kind);
  // Only the PEGroup's blocks, on a machine without a subnet: nothing would be recorded.
  const bool subnet = topology.torus() && (collective.trees > 0 || !collective.tree.empty());
  const auto in_the_pegroup = [](const std::string& b) {
    return b == "broadcaster" || b == "reducer";
  };
  if (trace.on() && !subnet &&
      std::all_of(trace.blocks.begin(), trace.blocks.end(), in_the_pegroup)) {
    throw ConfigError("trace.blocks", nlohmann::json(trace.blocks).dump(),
                      "blocks of the collective subnet's PEGroup, which this machine has none "
                      "of (collective.trees = 0, or a fat tree): nothing would be recorded; add a "
                      "router's block (link, vc, vcup, vcdown, pegroup_fifo, credit)");
  }
  stats.validate(workload.kind, sim);
  pcie.validate();
  node.validate();
  app.validate(workload.kind, topology.node_count());
  compute.validate();
  // A watchdog shorter than the first delivery could take reports a deadlock that is not one.
  if (const Cycle floor = first_delivery_floor(); sim.watchdog_cycles <= floor) {
    throw ConfigError("sim.watchdog_cycles", fmt::format("{}", sim.watchdog_cycles),
                      fmt::format("must be longer than the zero-load latency of this machine, {} "
                                  "cycles (a largest packet between the farthest two nodes, "
                                  "from the router, link, endpoint{} keys): a shorter watchdog "
                                  "reports a deadlock before anything could be delivered",
                                  floor,
                                  workload.kind == WorkloadKind::Synthetic    ? ""
                                  : workload.kind == WorkloadKind::Collective ? ", collective"
                                                                              : ", node, pcie"));
  }
}

}  // namespace angara
