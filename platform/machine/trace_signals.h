#pragma once
// The names a machine's modules go by, and the waveforms of a run (config [trace], AT): the nodes
// traced, the signals each traced router and PEGroup drives, declared under the router's module
// name ("router_1_0_2.vcup_xp.stage"), and the VCD they make.

#include <memory>
#include <string>
#include <vector>

#include "collectives/subnet/pe_group.h"
#include "collectives/subnet/tree.h"
#include "models/core/vc_layout.h"
#include "models/router/router_trace.h"
#include "models/timing/fabric_clock.h"
#include "models/timing/tracer.h"
#include "models/topology/topology.h"
#include "platform/config/config.h"

namespace angara {

// The SystemC name of a node's module (`module` "router", "endpoint", ...) by the node's
// coordinates, "router_1_0_2"; a fat tree's node by its index.
std::string module_name(const char* module, const std::vector<int>& coords);
std::string module_name(const char* module, NodeId node, const Topology& topology);

class TraceSignals {
 public:
  // The tracing `config` asks for on `topology` (none when [trace] names no node).
  TraceSignals(const Config& config, const Topology& topology);

  bool on() const { return m_tracer != nullptr; }
  bool traced(NodeId node) const;
  // The signals of node `node`'s router, whose ports' VCs are numbered by `layout`; and those of
  // its PEGroup, with its credit blocks' counters at their start for each of `trees`.
  std::unique_ptr<RouterTrace> router(NodeId node, const VcLayout& layout);
  std::unique_ptr<PeGroupTrace> pegroup(NodeId node, const std::vector<Tree>& trees);
  // The waveforms recorded so far as VCD text, in steps of `clock`'s period.
  std::string vcd(const FabricClock& clock) const;

 private:
  const Topology& m_topology;
  TraceParams m_params;
  std::unique_ptr<Tracer> m_tracer;  // null: tracing off
  std::vector<NodeId> m_traced;      // nodes traced, in config order
};

}  // namespace angara
