#include "models/routing/circulant_routing.h"

namespace angara {

CirculantRouting::CirculantRouting(const Circulant& graph, const RouterParams& params)
    : m_graph(graph), m_scheme(params.deadlock) {}

RouteStep CirculantRouting::route(NodeId here, NodeId dst, std::optional<PortId> arrived,
                                  int vc_class) const {
  RouteStep step;
  if (here == dst) {
    step.eject = true;
    return step;
  }
  step.port = m_graph.first_port(here, dst);
  const bool straight = arrived && *arrived == step.port;
  step.enters_ring = !straight;
  if (m_scheme == DeadlockScheme::Dateline) {
    step.vc_class = (straight && vc_class == 1) || m_graph.is_wrap_hop(here, step.port);
  } else if (m_scheme == DeadlockScheme::HopClasses) {
    step.vc_class = next_hop_class(arrived, vc_class);
  }
  return step;
}

}  // namespace angara
