#pragma once
// The whole machine in AT mode: the torus of routers, an endpoint on each router's local port,
// the wiring between them (checked at elaboration), the packet pool and the conservation ledger.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/packet_ledger.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/endpoint/endpoint_at.h"
#include "models/router/router_at.h"
#include "models/routing/direction_order_routing.h"
#include "models/topology/torus.h"

namespace angara {

class SystemAt {
 public:
  // `sources[n]` feeds node n; the observer hears every created and delivered packet.
  SystemAt(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
           TrafficObserver& observer);
  ~SystemAt();

  const Torus& torus() const { return m_torus; }
  const FabricClock& clock() const { return m_clock; }
  const PacketLedger& ledger() const { return m_ledger; }

  // Every endpoint stops creating packets from now on.
  void stop_creating();
  std::uint64_t flit_hops() const;
  std::size_t queued_at_sources() const;
  // The packet that has waited longest at the head of a router buffer, described for a person.
  std::optional<std::string> oldest_blocked(Cycle now) const;

 private:
  Torus m_torus;
  DirectionOrderRouting m_routing;
  FabricClock m_clock;
  PacketLedger m_ledger;
  PacketPool m_pool;
  std::vector<std::unique_ptr<TrafficSource>> m_sources;
  std::vector<std::unique_ptr<RouterAt>> m_routers;
  std::vector<std::unique_ptr<EndpointAt>> m_endpoints;
};

}  // namespace angara
