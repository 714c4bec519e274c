#include "platform/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "models/core/config_error.h"
#include "models/core/zero_load.h"
#include "platform/config/config_values.h"

namespace angara {

bool TraceParams::traces(const std::string& block) const {
  return std::find(blocks.begin(), blocks.end(), block) != blocks.end();
}

void TraceParams::validate(const TopologyParams& topology, SimMode mode) const {
  if (!on()) return;
  if (mode != SimMode::At) {
    throw ConfigError("trace.nodes", fmt::format("{} nodes", nodes.size()),
                      "waveforms are drawn from the AT model: set sim.mode = \"at\"");
  }
  for (const auto& n : nodes) topology.check_node("trace.nodes", n);
  const TraceParams all;
  for (const auto& b : blocks) {
    if (!all.traces(b)) {
      throw ConfigError("trace.blocks", "\"" + b + "\"",
                        fmt::format("unknown block; known: {}", fmt::join(all.blocks, ", ")));
    }
  }
  if (file.empty()) throw ConfigError("trace.file", "\"\"", "name the VCD file to write");
}

void RtlParams::validate(SimMode mode, const CollectiveParams& collective) const {
  if (vcup == BlockImpl::Rtl) {
    if (mode != SimMode::At) {
      throw ConfigError("rtl.vcup", "\"rtl\"",
                        "the RTL VCUp is clocked beside AT's routers, so it runs in AT only: set "
                        "sim.mode = \"at\" or rtl.vcup = \"model\"");
    }
    collective.check_rtl_vcup();
  }
  if (reducer == BlockImpl::Rtl) {
    if (mode != SimMode::At) {
      throw ConfigError("rtl.reducer", "\"rtl\"",
                        "the RTL Reducer is clocked, so it runs in AT only: set sim.mode = \"at\" "
                        "or rtl.reducer = \"model\"");
    }
    collective.check_rtl_reducer();
  }
}

void Config::validate_fat_tree() const {
  const auto refuse = [](const std::string& key, const std::string& value, const std::string& why) {
    throw ConfigError(key, value, why + " (topology.kind = \"fat_tree\"): use a torus");
  };
  if (workload.kind != WorkloadKind::Synthetic) {
    refuse("workload.kind", config_values::json_value(workload.kind).dump(),
           "a fat tree runs synthetic traffic only; the collective subnet and the nodes' CPUs "
           "are the torus's");
  }
  if (!collective.roots.empty() || !collective.transit.empty() || !collective.tree.empty()) {
    refuse("collective", "roots, transit or tree", "a fat tree has no collective subnet");
  }
  if (!router.direction_order.empty()) {
    refuse("router.direction_order", "not []", "a fat tree routes by nearest common ancestor");
  }
  if (router.adaptive()) {
    refuse("router.routing", "\"adaptive\"",
           "a fat tree's up paths are spread at random already; adaptive routing is the torus's");
  }
  if (router.deadlock == DeadlockScheme::Dateline) {
    refuse("router.deadlock", "\"dateline\"",
           "a fat tree's up/down routes need no ring deadlock scheme");
  }
  if (trace.on()) refuse("trace.nodes", "not []", "waveforms are drawn for torus routers");
  if (rtl.any()) refuse("rtl", "\"rtl\"", "the RTL blocks are the collective subnet's");
}

void StatsParams::validate(WorkloadKind kind) const {
  if (network && kind != WorkloadKind::Synthetic) {
    throw ConfigError("stats.network", "true",
                      fmt::format("network statistics are measured over the measurement window of "
                                  "workload.kind = \"synthetic\" only (here {})",
                                  config_values::json_value(kind).dump()));
  }
}

Cycle Config::first_delivery_floor() const {
  const ZeroLoad zero_load(fabric());
  const int hops = topology.diameter();
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

void Config::validate() const {
  topology.validate();
  faults.validate(topology);
  if (!topology.torus()) validate_fat_tree();
  const int dims = topology.torus() ? static_cast<int>(topology.dims.size()) : 1;
  routed().validate(dims);
  if ((!faults.nodes.empty() || faults.random_nodes > 0) &&
      workload.kind != WorkloadKind::Synthetic) {
    throw ConfigError(faults.nodes.empty() ? "faults.random_nodes" : "faults.nodes",
                      faults.nodes.empty() ? fmt::format("{}", faults.random_nodes)
                                           : fmt::format("{} nodes", faults.nodes.size()),
                      fmt::format("failed nodes are routed around for workload.kind = "
                                  "\"synthetic\" only (here {}); fail links instead",
                                  config_values::json_value(workload.kind).dump()));
  }
  link.validate("link");
  endpoint.validate("endpoint");
  collective.validate(topology);
  workload.validate(topology, collective);
  traffic.validate(topology);
  sim.validate();
  rtl.validate(sim.mode, collective);
  trace.validate(topology, sim.mode);
  stats.validate(workload.kind);
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
