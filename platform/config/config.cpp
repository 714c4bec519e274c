#include "platform/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "models/core/config_error.h"

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

void Config::validate() const {
  topology.validate();
  const int dims = static_cast<int>(topology.dims.size());
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
