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
  if (vcup == BlockImpl::Rtl) validate_vcup(mode, collective);
  if (reducer != BlockImpl::Rtl) return;
  if (mode != SimMode::At) {
    throw ConfigError("rtl.reducer", "\"rtl\"",
                      "the RTL Reducer is clocked, so it runs in AT only: set sim.mode = \"at\" "
                      "or rtl.reducer = \"model\"");
  }
  // The RTL's cycle fields are 4 bits; the head and the slot read take a cycle each.
  if (collective.reducer_cycles < 2 || collective.reducer_cycles > 15) {
    throw ConfigError("collective.reducer_cycles", fmt::format("{}", collective.reducer_cycles),
                      "with rtl.reducer = \"rtl\" it must be 2..15 (the head, then the slot read)");
  }
  if (collective.reducer_flit_cycles < 1 || collective.reducer_flit_cycles > 15) {
    throw ConfigError("collective.reducer_flit_cycles",
                      fmt::format("{}", collective.reducer_flit_cycles),
                      "with rtl.reducer = \"rtl\" it must be 1..15 (a data flit per beat)");
  }
}

void RtlParams::validate_vcup(SimMode mode, const CollectiveParams& collective) const {
  if (mode != SimMode::At) {
    throw ConfigError("rtl.vcup", "\"rtl\"",
                      "the RTL VCUp is clocked beside AT's routers, so it runs in AT only: set "
                      "sim.mode = \"at\" or rtl.vcup = \"model\"");
  }
  // The RTL's stage timers are 4 bits and each stage takes a cycle at least; it has 64 entries
  // and takes a largest packet.
  if (collective.table_cycles < 1 || collective.table_cycles > 15) {
    throw ConfigError("collective.table_cycles", fmt::format("{}", collective.table_cycles),
                      "with rtl.vcup = \"rtl\" it must be 1..15 (a 4-bit timer)");
  }
  if (collective.analysis_cycles < 1 || collective.analysis_cycles > 15) {
    throw ConfigError("collective.analysis_cycles", fmt::format("{}", collective.analysis_cycles),
                      "with rtl.vcup = \"rtl\" it must be 1..15 (a 4-bit timer)");
  }
  if (collective.buffer_flits < kMaxPacketFlits || collective.buffer_flits > 64) {
    throw ConfigError("collective.buffer_flits", fmt::format("{}", collective.buffer_flits),
                      "with rtl.vcup = \"rtl\" it must be 17..64 (a largest packet; 64 entries)");
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
