#include "platform/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "models/core/config_error.h"
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
  if (router.deadlock == DeadlockScheme::Dateline) {
    refuse("router.deadlock", "\"dateline\"",
           "a fat tree's up/down routes need no ring deadlock scheme");
  }
  if (trace.on()) refuse("trace.nodes", "not []", "waveforms are drawn for torus routers");
  if (rtl.any()) refuse("rtl", "\"rtl\"", "the RTL blocks are the collective subnet's");
}

void Config::validate() const {
  topology.validate();
  if (!topology.torus()) validate_fat_tree();
  const int dims = topology.torus() ? static_cast<int>(topology.dims.size()) : 1;
  router.validate(dims);
  link.validate("link");
  endpoint.validate("endpoint");
  collective.validate(topology);
  workload.validate(topology, collective);
  traffic.validate(topology);
  sim.validate();
  rtl.validate(sim.mode, collective);
  trace.validate(topology, sim.mode);
  pcie.validate();
  node.validate();
  app.validate(workload.kind, topology.node_count());
  compute.validate();
}

}  // namespace angara
