#pragma once
// Following a Cayley graph's routing (CirculantRouting, PermutationRouting) hop by hop, for the
// routing tests: a packet's walk from its source until it ejects, and the channel dependencies
// of every pair's walk.

#include <optional>
#include <vector>

#include "models/core/ids.h"
#include "models/routing/direction_order_routing.h"
#include "regress/support/graph.h"

namespace angara::test {

// One link a packet takes: leaving `router` by `port` on VC class `vc_class`.
struct CayleyHop {
  NodeId router;
  PortId port;
  int vc_class;
};

// The hops from `src` to `dst`; empty if the walk does not eject at `dst` within `limit` hops.
template <typename Graph, typename Routing>
std::vector<CayleyHop> cayley_walk(const Graph& graph, const Routing& routing, NodeId src,
                                   NodeId dst, int limit) {
  std::vector<CayleyHop> path;
  NodeId here = src;
  std::optional<PortId> arrived;
  int vc_class = 0;
  for (int step = 0; step <= limit; ++step) {
    const RouteStep s = routing.route(here, dst, arrived, vc_class);
    if (s.eject) return here == dst ? path : std::vector<CayleyHop>{};
    path.push_back({here, s.port, s.vc_class});
    here = graph.neighbor(here, s.port);
    arrived = s.port;
    vc_class = s.vc_class;
  }
  return {};
}

// The channel-dependency graph of all pairs' walks; channels are (router, port, class).
template <typename Graph, typename Routing>
test::Graph cayley_dependencies(const Graph& graph, const Routing& routing, int classes,
                                int limit) {
  const int ports = graph.ports();
  test::Graph deps(static_cast<std::size_t>(graph.node_count() * ports * classes));
  const auto channel = [&](const CayleyHop& h) {
    return (static_cast<int>(h.router) * ports + h.port) * classes + h.vc_class;
  };
  const auto n = static_cast<NodeId>(graph.node_count());
  for (NodeId src = 0; src < n; ++src) {
    for (NodeId dst = 0; dst < n; ++dst) {
      const std::vector<CayleyHop> path = cayley_walk(graph, routing, src, dst, limit);
      for (std::size_t i = 1; i < path.size(); ++i) {
        deps[channel(path[i - 1])].push_back(channel(path[i]));
      }
    }
  }
  return deps;
}

}  // namespace angara::test
