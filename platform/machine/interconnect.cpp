#include "platform/machine/interconnect.h"

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "models/topology/faults.h"
#include "workloads/synthetic/destinations.h"
#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

namespace {

// A node without a user port: it sends nothing.
class Silent : public TrafficSource {
 public:
  std::optional<PacketRequest> next() override { return std::nullopt; }
};

}  // namespace

// Packets ejected at a node go to its user port, when a port sent them (ports send only to
// nodes with a port); the background's are absorbed and counted.
class Interconnect::Deliveries : public TrafficObserver {
 public:
  std::vector<UserPort*> ports;
  LatencyStats background;
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& packet, NodeId at) override {
    if (ports[packet.header.src] != nullptr) {
      ports[at]->take(packet);
    } else {
      background.add(packet.tail_at - packet.created);
    }
  }
};

Interconnect::Interconnect(const sc_core::sc_module_name& name, const Config& config,
                           const std::vector<NodeId>& ports)
    : sc_core::sc_module(name),
      m_config(config),
      m_clock(config.router.clock_mhz),
      m_deliveries(std::make_unique<Deliveries>()) {
  m_config.validate();
  m_topology = std::make_unique<const Topology>(m_config.topology);
  const Topology& topology = *m_topology;
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
  // The background: uniform, as beside a collective, from the nodes without a port.
  TrafficParams background = m_config.traffic;
  background.pattern = TrafficPattern::Uniform;
  background.injection = InjectionProcess::Bernoulli;
  background.rate = m_config.workload.background_rate;
  background.probes = 0;
  if (background.rate > 0) {
    m_background = std::make_unique<Destinations>(topology, background, m_config.sim.seed, faults);
  }
  std::vector<std::unique_ptr<TrafficSource>> sources;
  m_ports.assign(static_cast<std::size_t>(nodes), nullptr);
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    if (!wanted[n] && m_background && !faults.node_failed(n)) {
      sources.push_back(
          std::make_unique<SyntheticTraffic>(n, *m_background, background, m_config.sim.seed));
      continue;
    }
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

std::uint64_t Interconnect::background_delivered() const {
  return m_deliveries->background.count();
}

const LatencyStats& Interconnect::background_latency() const {
  return m_deliveries->background;
}

void Interconnect::stop_background() {
  for (NodeId n = 0; n < m_ports.size(); ++n) {
    if (m_ports[n] == nullptr) m_system->stop_creating(n);
  }
}

std::uint64_t Interconnect::messages_handed_on() const {
  std::uint64_t handed = 0;
  for (const UserPort* p : m_ports) handed += p ? p->messages_handed_on() : 0;
  return handed;
}

}  // namespace angara
