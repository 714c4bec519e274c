#pragma once
// Routing around failed links and nodes on a torus ([faults], models/topology/faults.h).
//
// A packet whose direction-order path from its source router to its destination is intact takes
// it, on the VC it was injected on. Any other goes in two legs, each a direction-order path: to
// an intermediate node on the first leg's VCs, then on to the destination on the second's. The
// intermediate is one whose two paths are both intact, the one with the fewest hops in all (ties
// broken by a hash of the run's seed and the pair), chosen for every pair before the run; a pair of
// live nodes with no such node is a config error then. A packet that meets its destination on its
// first leg leaves there.
//
// Why it cannot deadlock. Each leg has VCs of its own: a VC is set * per_set + leg * classes +
// class (models/core/vc_layout.h), so router.vcs must hold both legs' classes.
// The endpoint injects on the VCs of both legs in turn, as it does without failures, so a direct
// packet may travel on either. On one leg's VCs every packet (a direct one, or a detour's leg)
// follows a direction-order path, so their channel dependencies are a subset of those of
// direction-order routing, which the bubble or the dateline already keeps
// free of deadlock (direction_order_routing.h): a packet starting its second leg enters that
// leg's network as one from the processor does (the bubble applies; dateline class 0, or 1 across
// a wrap link). Across legs a packet waits only from a first-leg VC for a second-leg VC, never
// back, so no cycle crosses the two networks; each drains in turn (ejection always does). Failed
// links and nodes only remove channels. Routes are finite (two paths), so nothing moves forever.
// Tested: the channel-dependency graph built from RouterCore's decisions on faulty small tori is
// acyclic with the dateline, every route avoids the failed elements and arrives, and no watchdog
// fires at offered 1.0 on a faulty torus in AT and LT.

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/routing/direction_order_routing.h"
#include "models/topology/faults.h"

namespace angara {

class FaultRouting {
 public:
  // Throws a ConfigError naming [faults] when two live nodes have no route.
  FaultRouting(const Torus& torus, const DirectionOrderRouting& order, FaultMap faults,
               std::uint64_t seed);

  const FaultMap& faults() const { return m_faults; }
  // Where a packet from `src` to `dst` ends its first leg: `dst` when no detour is needed.
  NodeId via(NodeId src, NodeId dst) const {
    const auto it = m_via.find(key(src, dst));
    return it == m_via.end() ? dst : it->second;
  }

 private:
  std::uint64_t key(NodeId src, NodeId dst) const { return std::uint64_t{src} * m_nodes + dst; }

  FaultMap m_faults;
  std::uint64_t m_nodes;
  std::unordered_map<std::uint64_t, NodeId> m_via;  // detoured pairs only
};

}  // namespace angara
