#include "models/routing/direction_order_routing.h"

#include "models/core/packet.h"

namespace angara {

DirectionOrderRouting::DirectionOrderRouting(const Torus& torus, const RouterParams& params)
    : m_torus(torus),
      m_order(params.resolved_direction_order(torus.dims())),
      m_scheme(params.deadlock),
      m_classes(params.vc_layout().classes) {}

RouteStep DirectionOrderRouting::route(NodeId here, NodeId dst, std::optional<Direction> arrived_by,
                                       int vc_class) const {
  RouteStep step;
  if (here == dst) {
    step.eject = true;
    return step;
  }
  const Coords& at = m_torus.coords(here);
  const Coords& to = m_torus.coords(dst);
  for (Direction dir : m_order) {
    const int offset = m_torus.ring_offset(at[dir.dim], to[dir.dim], dir.dim);
    if (offset == 0 || (offset < 0) != dir.negative) continue;
    const bool straight = arrived_by && *arrived_by == dir;
    const bool wrap = m_torus.is_wrap_hop(here, dir);
    step.port = static_cast<PortId>(dir.index());
    step.enters_ring = !straight;
    if (m_scheme == DeadlockScheme::Dateline) step.vc_class = (straight && vc_class == 1) || wrap;
    return step;
  }
  step.eject = true;  // unreachable: here != dst means some offset is non-zero
  return step;
}

int DirectionOrderRouting::required_credits(const RouteStep& step, int flits) const {
  if (m_scheme == DeadlockScheme::Bubble && !step.eject && step.enters_ring) {
    return flits + kMaxPacketFlits;
  }
  return flits;
}

}  // namespace angara
