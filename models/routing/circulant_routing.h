#pragma once
// Minimal routing on a circulant graph (topology.kind = "cayley"), made deadlock-free as the
// torus's direction order is, by bubble flow control or dateline classes.
//
// The rule: at each router take the first link port, in port order (+s_1, -s_1, +s_2, ...), whose
// far end is one hop nearer the destination (Circulant::first_port). Every hop is on a shortest
// path, so routes are minimal. They also visit the generators in order: if a packet took generator
// j and then a shortest path from the next router began with an earlier generator i, then i, j, ...
// would be a shortest path from the first router too (the group is abelian: steps commute), and the
// rule would have taken i there. A shortest path never takes +s_j and -s_j both, so a route is one
// run of one sign per generator, in generator order.
//
// Why it cannot deadlock. Channel dependencies go from a generator's links to a later
// generator's, which cannot close a cycle, or along one cycle of one generator and sign (the
// circulant's rings, circulant.h). A run of hops on one generator is shorter than its cycle (a
// shortest path never goes all the way round), so it crosses the cycle's wrap link at most once:
//  - Dateline: class 0 until the run crosses the wrap link, class 1 after it, as on a torus ring;
//    the channel-dependency graph is acyclic (tested on small graphs).
//  - Hop classes: the h-th hop on class h, as on a star graph (permutation_routing.h).
//  - Bubble: entering a generator's run (from injection or another generator) needs room for the
//    packet plus one largest packet, as entering a torus ring does; the torus's argument holds
//    ring by ring (shown by simulation at saturation).

#include <cstdint>
#include <optional>

#include "models/core/ids.h"
#include "models/core/params.h"
#include "models/routing/direction_order_routing.h"
#include "models/topology/circulant.h"

namespace angara {

class CirculantRouting {
 public:
  CirculantRouting(const Circulant& graph, const RouterParams& params);

  // Route from `here` toward `dst`. `arrived` is the link port of the hop that brought the
  // packet here (none at injection) and `vc_class` its class on that hop.
  RouteStep route(NodeId here, NodeId dst, std::optional<PortId> arrived, int vc_class) const;

  // Free flits the next buffer must show before a packet of `flits` flits may take `step`.
  int required_credits(const RouteStep& step, int flits) const {
    return ring_credits(m_scheme, step, flits);
  }

 private:
  const Circulant& m_graph;
  DeadlockScheme m_scheme;
};

}  // namespace angara
