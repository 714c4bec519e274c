#include "platform/system_at.h"

#include <fmt/format.h>

namespace angara {

SystemAt::SystemAt(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
                   TrafficObserver& observer)
    : m_torus(config.topology.dims),
      m_routing(m_torus, config.router),
      m_clock(config.router.clock_mhz),
      m_sources(std::move(sources)) {
  const ChannelTiming link(config.link, config.router.clock_mhz);
  const ChannelTiming local(config.endpoint, config.router.clock_mhz);
  const int nodes = m_torus.node_count();
  m_routers.reserve(nodes);
  m_endpoints.reserve(nodes);
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    m_routers.push_back(std::make_unique<RouterAt>(
        fmt::format("router_{}", n).c_str(),
        RouterCore(n, m_torus, m_routing, config.router, link, local), m_clock));
    m_endpoints.push_back(std::make_unique<EndpointAt>(
        fmt::format("endpoint_{}", n).c_str(),
        EndpointCore(n, *m_sources[n], observer, m_ledger, m_pool, config.router, local), m_clock));
  }
  // Multi-socket indices follow binding order, so bind port by port: out[d] and in[d] of every
  // router get index d, and the local port comes last.
  for (int d = 0; d < m_torus.direction_count(); ++d) {
    const Direction dir = Direction::from_index(d);
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      m_routers[m_torus.neighbor(n, dir.opposite())]->out.bind(m_routers[n]->in);
    }
  }
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    m_endpoints[n]->inject.bind(m_routers[n]->in);
    m_routers[n]->out.bind(m_endpoints[n]->eject);
  }
}

SystemAt::~SystemAt() = default;

void SystemAt::stop_creating() {
  for (auto& e : m_endpoints) e->stop_creating();
}

std::uint64_t SystemAt::flit_hops() const {
  std::uint64_t hops = 0;
  for (const auto& r : m_routers) hops += r->core().flit_hops();
  return hops;
}

std::size_t SystemAt::queued_at_sources() const {
  std::size_t queued = 0;
  for (const auto& e : m_endpoints) queued += e->core().queued();
  return queued;
}

std::optional<std::string> SystemAt::oldest_blocked(Cycle now) const {
  std::optional<RouterCore::Blocked> oldest;
  for (const auto& r : m_routers) {
    auto b = r->core().oldest_blocked(now);
    if (b && (!oldest || b->since < oldest->since)) oldest = std::move(b);
  }
  if (!oldest) return std::nullopt;
  return oldest->what;
}

}  // namespace angara
