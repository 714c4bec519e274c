#pragma once
// Minimal routing on a star or pancake graph (topology.kind = "cayley", group "star" or
// "pancake"), made deadlock-free by hop classes.
//
// The rule: at each router take the first port, in port order, on a shortest path to the
// destination (PermutationGraph::first_port), so routes are minimal. The group is not abelian:
// routes do not visit the generators in any fixed order, and the generators' links form no rings
// to put a dateline or a bubble on.
//
// Why it cannot deadlock (router.deadlock = "hop_classes"). A packet's h-th hop (from 0) uses VC
// class h. Every channel dependency goes from class h to class h + 1, so the channel-dependency
// graph is acyclic. A minimal route has at most the graph's diameter hops, so router.vcs must be
// at least the diameter (the config checks it; a power of two, as VC classes are numbered).

#include <optional>

#include "models/core/ids.h"
#include "models/core/params.h"
#include "models/routing/direction_order_routing.h"
#include "models/topology/permutation_graph.h"

namespace angara {

class PermutationRouting {
 public:
  PermutationRouting(const PermutationGraph& graph, const RouterParams& params)
      : m_graph(graph), m_hop_classes(params.deadlock == DeadlockScheme::HopClasses) {}

  // Route from `here` toward `dst`; `arrived` and `vc_class` as CirculantRouting's.
  RouteStep route(NodeId here, NodeId dst, std::optional<PortId> arrived, int vc_class) const {
    RouteStep step;
    if (here == dst) {
      step.eject = true;
      return step;
    }
    step.port = m_graph.first_port(here, dst);
    if (m_hop_classes) step.vc_class = next_hop_class(arrived, vc_class);
    return step;
  }

 private:
  const PermutationGraph& m_graph;
  bool m_hop_classes;
};

}  // namespace angara
