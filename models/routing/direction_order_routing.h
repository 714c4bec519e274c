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
// Ties (router.ties). At half a ring's size both ways are minimal. A packet faces the tie only
// where it starts along that dimension: one hop either way leaves it less than half the ring to
// go, the way it took. Whichever way each packet takes, its route stays minimal, in the direction
// order, crossing each wrap link at most once: both arguments above hold for every rule.

#include <optional>
#include <vector>

#include "models/core/ids.h"
#include "models/core/params.h"
#include "models/topology/torus.h"

namespace angara {

// The next move of a packet at a router.
struct RouteStep {
  bool eject = false;        // deliver to an endpoint on a local port
  PortId port = 0;           // output link port (torus: the direction); ejecting, which local
                             // port (0 but on a fat tree's leaf, which has one per host)
  int vc_class = 0;          // VC class on the next link: 0, or 1 after the dateline
  bool enters_ring = false;  // first hop in `dir`: the bubble rule applies
  int leg = 0;               // around failures: 1 on a detour's second leg (fault_routing.h)
};

// Free flits the next buffer must show before a packet of `flits` flits may take `step` under
// `scheme`: with the bubble, a packet entering a ring needs room for one largest packet more.
int ring_credits(DeadlockScheme scheme, const RouteStep& step, int flits);

// The VC class of the next hop under hop classes (a Cayley graph's): 0 from the processor, else one
// past the last.
inline int next_hop_class(std::optional<PortId> arrived, int vc_class) {
  return arrived ? vc_class + 1 : 0;
}

class DirectionOrderRouting {
 public:
  // `seed` draws the random tie rule's ways (router.ties).
  DirectionOrderRouting(const Torus& torus, const RouterParams& params, std::uint64_t seed = 0);

  // Route from `here` toward `dst`. `arrived_by` is the direction of the hop that brought the
  // packet here (none at injection) and `vc_class` its class on that hop; `key` is the packet's
  // own (its source and sequence), which draws its way at a tie under the random rule.
  RouteStep route(NodeId here, NodeId dst, std::optional<Direction> arrived_by, int vc_class,
                  std::uint64_t key = 0) const;

  // Free flits the next buffer must show before a packet of `flits` flits may take `step`.
  int required_credits(const RouteStep& step, int flits) const {
    return ring_credits(m_scheme, step, flits);
  }

  int vc_classes() const { return m_classes; }

 private:
  // The signed way from coordinate `at` to `to` along `dim`: ring_offset's, but at a tie (k/2
  // either way) the rule's.
  int offset(int at, int to, int dim, std::uint64_t key) const;

  const Torus& m_torus;
  std::vector<Direction> m_order;
  DeadlockScheme m_scheme;
  TieRule m_ties;
  std::uint64_t m_seed;
  int m_classes;
};

}  // namespace angara
