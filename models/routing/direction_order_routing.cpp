#include "models/routing/direction_order_routing.h"

#include "models/core/packet.h"
#include "models/core/rng.h"

namespace angara {

DirectionOrderRouting::DirectionOrderRouting(const Torus& torus, const RouterParams& params,
                                             std::uint64_t seed)
    : m_torus(torus),
      m_order(params.resolved_direction_order(torus.dims())),
      m_scheme(params.deadlock),
      m_ties(params.ties),
      m_seed(seed),
      m_classes(params.vc_layout().classes) {}

int DirectionOrderRouting::offset(int at, int to, int dim, std::uint64_t key) const {
  const int shortest = m_torus.ring_offset(at, to, dim);
  if (2 * shortest != m_torus.size(dim) || m_ties == TieRule::Positive) return shortest;
  bool negative = false;
  switch (m_ties) {
    case TieRule::SourceParity:
      negative = at % 2 != 0;
      break;
    case TieRule::DestinationParity:
      negative = to % 2 != 0;
      break;
    default:  // Random: the packet's own draw, one per dimension
      negative = (mix64(key ^ mix64(m_seed + static_cast<std::uint64_t>(dim))) & 1) != 0;
  }
  return negative ? -shortest : shortest;
}

RouteStep DirectionOrderRouting::route(NodeId here, NodeId dst, std::optional<Direction> arrived_by,
                                       int vc_class, std::uint64_t key) const {
  RouteStep step;
  if (here == dst) {
    step.eject = true;
    return step;
  }
  const Coords& at = m_torus.coords(here);
  const Coords& to = m_torus.coords(dst);
  for (Direction dir : m_order) {
    const int way = offset(at[dir.dim], to[dir.dim], dir.dim, key);
    if (way == 0 || (way < 0) != dir.negative) continue;
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

int ring_credits(DeadlockScheme scheme, const RouteStep& step, int flits) {
  if (scheme == DeadlockScheme::Bubble && !step.eject && step.enters_ring) {
    return flits + kMaxPacketFlits;
  }
  return flits;
}

}  // namespace angara
