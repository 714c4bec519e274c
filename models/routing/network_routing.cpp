#include "models/routing/network_routing.h"

namespace angara {

NetworkRouting::NetworkRouting(const Topology& topology, const RouterParams& params,
                               std::uint64_t seed)
    : m_first_adaptive_vc(params.first_adaptive_vc()) {
  if (topology.fat_tree()) {
    m_tree.emplace(*topology.fat_tree(), seed);
  } else {
    m_torus.emplace(*topology.torus(), params);
    if (params.adaptive()) m_adaptive.emplace(*topology.torus());
  }
}

}  // namespace angara
