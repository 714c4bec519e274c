#include "platform/machine/trace_signals.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace angara {

std::string module_name(const char* module, const std::vector<int>& coords) {
  std::string name = module;
  for (int c : coords) name += "_" + std::to_string(c);
  return name;
}

// A fat tree's nodes have no coordinates: their index stands for them.
std::string module_name(const char* module, NodeId node, const Topology& topology) {
  const Torus* torus = topology.torus();
  if (torus == nullptr) return module_name(module, std::vector<int>{static_cast<int>(node)});
  const Coords& c = torus->coords(node);
  return module_name(module, std::vector<int>(c.begin(), c.begin() + torus->dims()));
}

TraceSignals::TraceSignals(const Config& config, const Topology& topology)
    : m_topology(topology), m_params(config.trace) {
  if (!config.trace.on()) return;
  m_tracer = std::make_unique<Tracer>();
  for (const auto& c : config.trace.nodes) m_traced.push_back(config.topology.node_at(c));
}

bool TraceSignals::traced(NodeId n) const {
  return std::find(m_traced.begin(), m_traced.end(), n) != m_traced.end();
}

namespace {

// "xp" for +X, "wm" for -W: port names that every VCD reader takes.
std::string port_tag(int port) {
  const Direction d = Direction::from_index(port);
  return std::string(1, static_cast<char>('x' + (d.dim == 3 ? -1 : d.dim))) +
         (d.negative ? "m" : "p");
}

}  // namespace

std::unique_ptr<RouterTrace> TraceSignals::router(NodeId n, const VcLayout& layout) {
  const TraceParams& tc = m_params;
  auto t = std::make_unique<RouterTrace>();
  t->tracer = m_tracer.get();
  const std::string node = module_name("router", n, m_topology);
  const int dirs = m_topology.torus()->direction_count(), ports = dirs + 1;  // and the local port
  const int p2p = layout.p2p, vcs = layout.per_port();
  t->link_valid.assign(ports, -1);
  t->link_packet.assign(ports, -1);
  t->credits.assign(static_cast<std::size_t>(ports * vcs), -1);
  t->inputs.assign(static_cast<std::size_t>(ports * vcs), {});
  // Point-to-point buffers may be deep (router.buffer_flits): their counters are wider.
  auto collective_vc = [&](const std::string& scope) {
    return RouterTrace::Vc{m_tracer->declare(scope, "occupancy", 8),
                           m_tracer->declare(scope, "stage", 3),
                           m_tracer->declare(scope, "packet", 32)};
  };
  for (int p = 0; p < ports; ++p) {
    const std::string tag = p < dirs ? port_tag(p) : "local";
    RouterTrace::Vc* in = &t->inputs[static_cast<std::size_t>(p * vcs)];
    Tracer::Signal* credits = &t->credits[static_cast<std::size_t>(p * vcs)];
    if (tc.traces("link")) {
      t->link_valid[p] = m_tracer->declare(node + ".link_" + tag, "valid", 1);
      t->link_packet[p] = m_tracer->declare(node + ".link_" + tag, "packet", 32);
    }
    if (tc.traces("vc")) {
      for (int vc = 0; vc < p2p; ++vc) {
        in[vc].occupancy = m_tracer->declare(node + ".vc_" + tag, fmt::format("vc{}", vc), 16);
      }
    }
    if (p < dirs && tc.traces("vcup")) in[p2p] = collective_vc(node + ".vcup_" + tag);
    if (p < dirs && tc.traces("vcdown")) in[p2p + 1] = collective_vc(node + ".vcdown_" + tag);
    if (p == dirs && tc.traces("pegroup_fifo")) in[p2p] = collective_vc(node + ".pegroup_fifo");
    if (tc.traces("credit")) {
      credits[p2p] = m_tracer->declare(node + ".credits_" + tag, "vcup", 8);
      credits[p2p + 1] = m_tracer->declare(node + ".credits_" + tag, "vcdown", 8);
      for (int vc = 0; vc < p2p; ++vc) {
        credits[vc] = m_tracer->declare(node + ".credits_" + tag, fmt::format("vc{}", vc), 16);
      }
    }
  }
  return t;
}

std::unique_ptr<PeGroupTrace> TraceSignals::pegroup(NodeId n, const std::vector<Tree>& trees) {
  const TraceParams& tc = m_params;
  auto t = std::make_unique<PeGroupTrace>();
  t->tracer = m_tracer.get();
  const std::string node = module_name("router", n, m_topology);
  if (tc.traces("broadcaster")) {
    t->broadcaster_valid = m_tracer->declare(node + ".broadcaster", "valid", 1);
    t->broadcaster_packet = m_tracer->declare(node + ".broadcaster", "packet", 32);
  }
  if (tc.traces("reducer")) {
    t->reducer_valid = m_tracer->declare(node + ".reducer", "valid", 1);
    t->reducer_packet = m_tracer->declare(node + ".reducer", "packet", 32);
  }
  for (const Tree& tree : trees) {
    if (tc.traces("reducer")) {
      t->reduces[tree.id] =
          m_tracer->declare(node + ".reducer", fmt::format("in_flight_t{}", tree.id), 5);
    }
    if (tc.traces("credit")) {
      t->up_credits[tree.id] =
          m_tracer->declare(node + ".credit_block", fmt::format("up_credits_t{}", tree.id), 8);
    }
  }
  for (const Tree& tree : trees) {
    if (t->up_credits[tree.id] >= 0) m_tracer->change(t->up_credits[tree.id], 0, kReducesPerTree);
  }
  return t;
}

std::string TraceSignals::vcd(const FabricClock& clock) const {
  std::ostringstream out;
  if (m_tracer) {
    m_tracer->write_vcd(out, clock.period().value() / sc_core::sc_time(1, sc_core::SC_PS).value());
  }
  return out.str();
}

}  // namespace angara
