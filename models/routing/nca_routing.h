#pragma once
// Nearest-common-ancestor routing on a fat tree: up from the source's leaf switch along a random
// path, one up port per level drawn from the packet's key, to the lowest level whose switches are
// above the destination, then down the unique path.
//
// Why it cannot deadlock. Every route goes up, then down, and never up again. Number the
// channels: up channels by the level they leave from, lowest first, then down channels by the
// level they leave from, highest first. A packet holding one channel waits only for a channel
// later in that numbering (up to a higher up channel or to a down channel; down to a lower down
// channel), so the channel-dependency graph is acyclic with one VC class and no bubble (tested on
// small trees). Routes are minimal: a packet climbs only to its nodes' common level.

#include <cstdint>

#include "models/routing/direction_order_routing.h"
#include "models/topology/fat_tree.h"

namespace angara {

class NcaRouting {
 public:
  NcaRouting(const FatTree& tree, std::uint64_t seed) : m_tree(tree), m_seed(seed) {}

  // The next step at switch `here` toward node `dst` for the packet whose up path `key` picks
  // (any value the packet keeps along its way: the same key, the same path). At the
  // destination's leaf the step ejects through host port `port`.
  RouteStep route(NodeId here, NodeId dst, std::uint64_t key) const;

 private:
  const FatTree& m_tree;
  std::uint64_t m_seed;
};

}  // namespace angara
