#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

SyntheticTraffic::SyntheticTraffic(NodeId self, const Destinations& destinations,
                                   const TrafficParams& params, std::uint64_t seed)
    : m_self(self),
      m_destinations(destinations),
      m_flits{params.bimodal_flits.empty() ? params.packet_flits : params.bimodal_flits[0],
              params.bimodal_flits.empty() ? params.packet_flits : params.bimodal_flits[1]},
      m_first_share(params.bimodal_flits.empty() ? 1.0 : params.bimodal_fraction),
      m_sends(params.rate > 0.0 && destinations.sends(self)),
      m_injection(params, params.rate / params.mean_wire_flits()),
      m_rng(seed, self) {}

std::optional<PacketRequest> SyntheticTraffic::next() {
  if (!m_sends) return std::nullopt;
  const Cycle created = m_injection.next(m_rng);
  const NodeId dst = m_destinations.pick(m_self, m_rng);
  const bool first = m_flits[0] == m_flits[1] || m_rng.uniform01() < m_first_share;
  return PacketRequest{dst, m_flits[first ? 0 : 1], created};
}

}  // namespace angara
