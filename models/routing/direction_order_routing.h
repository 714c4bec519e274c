#pragma once
// Deterministic direction-order routing on a torus, made deadlock-free by bubble flow control or
// by dateline virtual-channel classes (RouterParams::deadlock).
//
// Why it cannot deadlock. A packet visits the directions it needs (+X or -X, +Y or -Y, ...) in one
// fixed total order and always takes the minimal way round each ring. Every channel dependency
// therefore goes either from one direction to a later one in the order, which can never close a
// cycle, or along one unidirectional ring in the same direction. Only the rings are cycles:
//  - Dateline: a packet on a ring uses class 0 until it crosses that ring's wrap-around link and
//    class 1 after it. A minimal route crosses it at most once, so class-0 channels never depend
//    across the wrap link and class-1 channels never reach it again: each ring's dependencies
//    become two paths, and the whole channel-dependency graph is acyclic (tested on small tori).
//  - Bubble (Angara, SKIF): with virtual cut-through, a packet entering a ring (from injection or
//    from another direction) needs room for itself plus one largest packet in the next buffer,
//    while a packet already on the ring needs room for itself only. Entering packets therefore
//    never fill a ring's last free packet slot, so at least one packet on every ring can always
//    move, and a packet at the head of its ring's buffer eventually advances or leaves the ring.
//    The dependency graph has cycles, so this is shown by simulation at saturation instead.

#include <optional>
#include <vector>

#include "models/core/ids.h"
#include "models/core/params.h"
#include "models/topology/torus.h"

namespace angara {

// The next move of a packet at a router.
struct RouteStep {
  bool eject = false;        // deliver to the local endpoint
  PortId port = 0;           // output link port, when not ejecting (torus: the direction)
  int vc_class = 0;          // VC class on the next link: 0, or 1 after the dateline
  bool enters_ring = false;  // first hop in `dir`: the bubble rule applies
  int leg = 0;               // around failures: 1 on a detour's second leg (fault_routing.h)
};

class DirectionOrderRouting {
 public:
  DirectionOrderRouting(const Torus& torus, const RouterParams& params);

  // Route from `here` toward `dst`. `arrived_by` is the direction of the hop that brought the
  // packet here (none at injection) and `vc_class` its class on that hop.
  RouteStep route(NodeId here, NodeId dst, std::optional<Direction> arrived_by, int vc_class) const;

  // Free flits the next buffer must show before a packet of `flits` flits may take `step`.
  int required_credits(const RouteStep& step, int flits) const;

  int vc_classes() const { return m_classes; }

 private:
  const Torus& m_torus;
  std::vector<Direction> m_order;
  DeadlockScheme m_scheme;
  int m_classes;
};

}  // namespace angara
