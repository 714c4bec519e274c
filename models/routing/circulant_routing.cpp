#include "models/routing/circulant_routing.h"

#include "models/routing/permutation_routing.h"

namespace angara {

CirculantRouting::CirculantRouting(const Circulant& graph, const RouterParams& params)
    : m_graph(graph), m_scheme(params.deadlock) {}

RouteStep CirculantRouting::route(NodeId here, NodeId dst, std::optional<PortId> arrived,
                                  int vc_class) const {
  RouteStep step;
  const int offset = m_graph.offset(here, dst);
  if (offset == 0) {
    step.eject = true;
    return step;
  }
  const int nearer = m_graph.distance(offset) - 1;
  for (PortId port = 0; port < m_graph.ports(); ++port) {
    // The first port whose far end is one hop nearer.
    if (m_graph.distance(m_graph.offset(m_graph.neighbor(here, port), dst)) != nearer) continue;
    const bool straight = arrived && *arrived == port;
    step.port = port;
    step.enters_ring = !straight;
    if (m_scheme == DeadlockScheme::Dateline) {
      step.vc_class = (straight && vc_class == 1) || m_graph.is_wrap_hop(here, port);
    } else if (m_scheme == DeadlockScheme::HopClasses) {
      step.vc_class = next_hop_class(arrived, vc_class);
    }
    return step;
  }
  step.eject = true;  // unreachable: a node off the destination has a neighbour nearer to it
  return step;
}

}  // namespace angara
