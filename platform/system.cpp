#include "platform/system.h"

#include <fmt/format.h>

#include "models/endpoint/endpoint_at.h"
#include "models/endpoint/endpoint_lt.h"
#include "models/router/router_at.h"
#include "models/router/router_lt.h"

namespace angara {

System::System(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
               TrafficObserver& observer)
    : m_torus(config.topology.dims),
      m_routing(m_torus, config.router),
      m_clock(config.router.clock_mhz),
      m_sources(std::move(sources)) {
  if (config.sim.mode == SimMode::Lt) {
    // The global quantum is set here, once, from the config (never by a module).
    tlm::tlm_global_quantum::instance().set(m_clock.period() *
                                            static_cast<double>(config.sim.quantum_cycles));
    build<RouterLt, EndpointLt>(config, observer, config.sim.quantum_cycles);
  } else {
    build<RouterAt, EndpointAt>(config, observer);
  }
}

System::~System() = default;

template <typename RouterShell, typename EndpointShell, typename... ShellArgs>
void System::build(const Config& config, TrafficObserver& observer, ShellArgs... endpoint_args) {
  const ChannelTiming link(config.link, config.router.clock_mhz);
  const ChannelTiming local(config.endpoint, config.router.clock_mhz);
  const auto nodes = static_cast<NodeId>(m_torus.node_count());
  std::vector<RouterShell*> routers;
  std::vector<EndpointShell*> endpoints;
  for (NodeId n = 0; n < nodes; ++n) {
    auto router = std::make_unique<RouterShell>(
        fmt::format("router_{}", n).c_str(),
        RouterCore(n, m_torus, m_routing, config.router, link, local), m_clock);
    auto endpoint = std::make_unique<EndpointShell>(
        fmt::format("endpoint_{}", n).c_str(),
        EndpointCore(n, *m_sources[n], observer, m_ledger, m_pool, config.router, local), m_clock,
        endpoint_args...);
    routers.push_back(router.get());
    endpoints.push_back(endpoint.get());
    m_routers.push_back(&router->core());
    m_endpoints.push_back(&endpoint->core());
    m_modules.push_back(std::move(router));
    m_modules.push_back(std::move(endpoint));
  }
  // Multi-socket indices follow binding order, so bind port by port: out[d] and in[d] of every
  // router get index d, and the local port comes last.
  for (int d = 0; d < m_torus.direction_count(); ++d) {
    const Direction dir = Direction::from_index(d);
    for (NodeId n = 0; n < nodes; ++n)
      routers[m_torus.neighbor(n, dir.opposite())]->out.bind(routers[n]->in);
  }
  for (NodeId n = 0; n < nodes; ++n) {
    endpoints[n]->inject.bind(routers[n]->in);
    routers[n]->out.bind(endpoints[n]->eject);
  }
}

void System::stop_creating() {
  for (EndpointCore* e : m_endpoints) e->stop_creating(m_clock.now());
}

std::uint64_t System::flit_hops() const {
  std::uint64_t hops = 0;
  for (const RouterCore* r : m_routers) hops += r->flit_hops();
  return hops;
}

std::size_t System::queued_at_sources() const {
  std::size_t queued = 0;
  for (const EndpointCore* e : m_endpoints) queued += e->queued();
  return queued;
}

std::optional<std::string> System::oldest_blocked(Cycle now) const {
  std::optional<RouterCore::Blocked> oldest;
  for (const RouterCore* r : m_routers) {
    auto b = r->oldest_blocked(now);
    if (b && (!oldest || b->since < oldest->since)) oldest = std::move(b);
  }
  if (!oldest) return std::nullopt;
  return oldest->what;
}

}  // namespace angara
