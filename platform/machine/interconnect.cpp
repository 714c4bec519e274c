#include "platform/machine/interconnect.h"

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "models/topology/faults.h"

namespace angara {

namespace {

// A node without a user port: it sends nothing.
class Silent : public TrafficSource {
 public:
  std::optional<PacketRequest> next() override { return std::nullopt; }
};

}  // namespace

// Packets ejected at a node go to its user port. Only ports send, and only to nodes with a
// port, so every packet finds one.
class Interconnect::Deliveries : public TrafficObserver {
 public:
  std::vector<UserPort*> ports;
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& packet, NodeId at) override { ports[at]->take(packet); }
};

Interconnect::Interconnect(const sc_core::sc_module_name& name, const Config& config,
                           const std::vector<NodeId>& ports)
    : sc_core::sc_module(name),
      m_config(config),
      m_clock(config.router.clock_mhz),
      m_deliveries(std::make_unique<Deliveries>()) {
  m_config.validate();
  const Topology topology(m_config.topology);
  const int nodes = topology.node_count();
  const FaultMap faults = topology.torus()
                              ? FaultMap(*topology.torus(), m_config.faults, m_config.sim.seed)
                              : FaultMap();
  std::vector<bool> wanted(static_cast<std::size_t>(nodes), false);
  for (NodeId n : ports) {
    if (n >= static_cast<NodeId>(nodes) || faults.node_failed(n)) {
      throw ConfigError("ports", fmt::format("{}", n),
                        fmt::format("a user port needs a live node of the {} nodes", nodes));
    }
    wanted[n] = true;
  }
  m_reachable.assign(static_cast<std::size_t>(nodes), false);
  std::vector<std::unique_ptr<TrafficSource>> sources;
  m_ports.assign(static_cast<std::size_t>(nodes), nullptr);
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    if (!wanted[n]) {
      sources.push_back(std::make_unique<Silent>());
      continue;
    }
    auto port = std::make_unique<UserPort>(fmt::format("port_{}", n).c_str(), n, m_reachable,
                                           m_clock, m_config.sim.mode == SimMode::At);
    m_ports[n] = port.get();
    sources.push_back(std::move(port));
  }
  m_deliveries->ports = m_ports;
  m_system = std::make_unique<System>(m_config, std::move(sources), *m_deliveries);
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    if (m_ports[n]) m_ports[n]->on_new_work([this, n] { m_system->wake_endpoint(n); });
  }
}

Interconnect::~Interconnect() = default;

void Interconnect::end_of_elaboration() {
  for (std::size_t n = 0; n < m_ports.size(); ++n) {
    m_reachable[n] = m_ports[n] != nullptr && m_ports[n]->out.size() > 0;
  }
}

UserPort& Interconnect::user_port(NodeId node) {
  if (!has_port(node)) {
    throw std::out_of_range(fmt::format("{}: node {} has no user port", name(), node));
  }
  return *m_ports[node];
}

std::uint64_t Interconnect::messages_sent() const {
  std::uint64_t sent = 0;
  for (const UserPort* p : m_ports) sent += p ? p->messages_sent() : 0;
  return sent;
}

std::uint64_t Interconnect::messages_handed_on() const {
  std::uint64_t handed = 0;
  for (const UserPort* p : m_ports) handed += p ? p->messages_handed_on() : 0;
  return handed;
}

}  // namespace angara
