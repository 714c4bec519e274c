#include "models/routing/network_routing.h"

namespace angara {

NetworkRouting::NetworkRouting(const Topology& topology, const RouterParams& params,
                               std::uint64_t seed) {
  if (topology.fat_tree()) {
    m_tree.emplace(*topology.fat_tree(), seed);
  } else {
    m_torus.emplace(*topology.torus(), params);
  }
}

}  // namespace angara
