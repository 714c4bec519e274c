#pragma once
// Interconnect: the machine as an sc_module to embed in a user's SystemC model
// (docs/EMBEDDING.md). It builds the routers and endpoints of `config` (torus or fat tree, AT or
// LT as `sim.mode` says) as its children and gives each node listed in `ports` a UserPort: a
// target socket into which the user's initiator writes messages (tlm_generic_payload, address =
// destination node) and an initiator socket that delivers the messages for that node to the
// user's target. Nodes without a port send nothing. Inside, the fabric is the one angara-sim
// runs: in LT its routers call along the path directly; what the user sees and may monitor are
// the ports' sockets. Beside them, the nodes without a port may send uniform background traffic
// (workload.background_rate), absorbed where it arrives.

#include <memory>
#include <vector>

#include "models/core/latency_stats.h"
#include "models/endpoint/user_port.h"
#include "platform/config/config.h"
#include "platform/machine/system.h"

namespace angara {

class Destinations;

class Interconnect : public sc_core::sc_module {
 public:
  // Validates `config` (ConfigError naming the key) and builds the machine; a port on a node
  // that does not exist or has failed is a ConfigError too. Sets the global quantum in LT.
  Interconnect(const sc_core::sc_module_name& name, const Config& config,
               const std::vector<NodeId>& ports);
  ~Interconnect() override;

  // The user port of `node` (std::out_of_range if it was not given one).
  UserPort& user_port(NodeId node);
  bool has_port(NodeId node) const { return node < m_ports.size() && m_ports[node] != nullptr; }

  const Config& config() const { return m_config; }
  System& system() { return *m_system; }
  const FabricClock& clock() const { return m_system->clock(); }
  int nodes() const { return static_cast<int>(m_ports.size()); }

  // Messages queued at the ports, and handed on to the users' targets.
  std::uint64_t messages_sent() const;
  std::uint64_t messages_handed_on() const;

  // The background's packets arrived so far and their latencies (cycles, creation to tail in).
  std::uint64_t background_delivered() const;
  const LatencyStats& background_latency() const;
  // From now on the background creates no more packets (those on their way arrive), so that
  // sc_start() without a time ends once the ports' messages are in.
  void stop_background();

 private:
  class Deliveries;
  // Messages may go to the ports whose `out` is bound.
  void end_of_elaboration() override;

  Config m_config;
  FabricClock m_clock;             // the ports' (the system's is built after them)
  std::vector<bool> m_reachable;   // [node]: has a user port whose `out` is bound
  std::vector<UserPort*> m_ports;  // [node], owned by the system as its traffic sources
  std::unique_ptr<Deliveries> m_deliveries;
  std::unique_ptr<const Topology> m_topology;  // the background's destinations read it
  std::unique_ptr<Destinations> m_background;  // where background packets go (none: rate 0)
  std::unique_ptr<System> m_system;
};

}  // namespace angara
