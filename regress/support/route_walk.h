#pragma once
// Following DirectionOrderRouting::route hop by hop, for the routing tests: a packet's walk from
// its source until it ejects.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/core/params.h"
#include "models/routing/direction_order_routing.h"
#include "models/topology/torus.h"

namespace angara::test {

inline constexpr Direction kPX{0, false}, kMX{0, true}, kPY{1, false}, kMY{1, true}, kPZ{2, false},
    kMZ{2, true}, kPW{3, false}, kMW{3, true};

inline RouterParams router_params(DeadlockScheme scheme, std::vector<Direction> order,
                                  TieRule ties = TieRule::Positive) {
  RouterParams p;
  p.deadlock = scheme;
  p.direction_order = std::move(order);
  p.ties = ties;
  return p;
}

// One link a packet takes: leaving `node` in direction `dir` on VC class `vc_class`.
struct Hop {
  NodeId node;
  Direction dir;
  int vc_class;
  bool enters_ring;
};

// Follows DirectionOrderRouting::route from `src` until it ejects. Gives up (returning the hops
// so far, the last of which is not at `dst`) after more hops than any minimal route could need.
struct Walk {
  std::vector<Hop> hops;
  NodeId end = 0;
  bool ejected = false;
};

inline Walk walk(const Torus& torus, const DirectionOrderRouting& routing, NodeId src, NodeId dst,
                 std::uint64_t key = 0) {
  Walk w;
  NodeId here = src;
  std::optional<Direction> arrived_by;
  int vc_class = 0;
  for (int guard = 0; guard <= torus.node_count(); ++guard) {
    const RouteStep step = routing.route(here, dst, arrived_by, vc_class, key);
    if (step.eject) {
      w.ejected = true;
      break;
    }
    w.hops.push_back({here, Direction::from_index(step.port), step.vc_class, step.enters_ring});
    here = torus.neighbor(here, w.hops.back().dir);
    arrived_by = w.hops.back().dir;
    vc_class = step.vc_class;
  }
  w.end = here;
  return w;
}

}  // namespace angara::test
