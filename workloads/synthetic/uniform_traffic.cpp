#include "workloads/synthetic/uniform_traffic.h"

namespace angara {

UniformTraffic::UniformTraffic(NodeId self, int node_count, const TrafficParams& params,
                               std::uint64_t seed)
    : m_self(self),
      m_nodes(node_count),
      m_data_flits(params.packet_flits),
      m_probability(params.rate / params.wire_flits()),
      m_rng(seed, self) {}

std::optional<PacketRequest> UniformTraffic::next() {
  if (m_probability <= 0.0 || m_nodes < 2) return std::nullopt;
  const Cycle created = m_cycle + m_rng.geometric(m_probability);
  m_cycle = created + 1;
  auto dst = static_cast<NodeId>(m_rng.uniform(m_nodes - 1));
  if (dst >= m_self) ++dst;
  return PacketRequest{dst, m_data_flits, created};
}

}  // namespace angara
