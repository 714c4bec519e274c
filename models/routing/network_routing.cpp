#include "models/routing/network_routing.h"

#include <stdexcept>
#include <utility>

namespace angara {

NetworkRouting::NetworkRouting(const Topology& topology, const RouterParams& params,
                               std::uint64_t seed, const FaultParams& faults)
    : m_vcs(params.vc_layout()) {
  if (topology.fat_tree()) {
    m_tree.emplace(*topology.fat_tree(), seed);
  } else if (topology.circulant()) {
    m_circulant.emplace(*topology.circulant(), params);
  } else if (topology.permutation_graph()) {
    m_permutation.emplace(*topology.permutation_graph(), params);
  } else {
    m_torus.emplace(*topology.torus(), params, seed);
    if (params.adaptive()) m_adaptive.emplace(*topology.torus());
    if (!faults.any()) return;
    if (params.route_phases < 2) {
      throw std::logic_error("failed links or nodes need RouterParams::route_phases = 2");
    }
    FaultMap failed(*topology.torus(), faults, seed);
    if (failed.any()) m_faults.emplace(*topology.torus(), *m_torus, std::move(failed), seed);
    m_fail_at = faults.fail_at_cycle;
  }
}

}  // namespace angara
