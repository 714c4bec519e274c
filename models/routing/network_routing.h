#pragma once
// The machine's point-to-point routing: dimension order on a torus (direction_order_routing.h),
// nearest common ancestor on a fat tree (nca_routing.h).

#include <cstdint>
#include <optional>

#include "models/core/packet.h"
#include "models/routing/direction_order_routing.h"
#include "models/routing/nca_routing.h"
#include "models/topology/topology.h"

namespace angara {

class NetworkRouting {
 public:
  // `seed` draws a fat tree's up paths.
  NetworkRouting(const Topology& topology, const RouterParams& params, std::uint64_t seed);

  // The next step at router `here` of the packet with `header`, which arrived on link port
  // `arrived` (none: from the local port) on VC class `vc_class`.
  RouteStep route(NodeId here, std::optional<PortId> arrived, const PacketHeader& header,
                  int vc_class) const {
    if (m_tree) return m_tree->route(here, header.dst, key(header));
    std::optional<Direction> by;
    if (arrived) by = Direction::from_index(*arrived);
    return m_torus->route(here, header.dst, by, vc_class);
  }
  // Free flits the next buffer must show before a packet of `flits` flits may take `step`.
  int required_credits(const RouteStep& step, int flits) const {
    return m_tree ? flits : m_torus->required_credits(step, flits);
  }
  int vc_classes() const { return m_tree ? 1 : m_torus->vc_classes(); }

 private:
  // A packet's own: its source and its sequence number (or a Message's tag).
  static std::uint64_t key(const PacketHeader& h) {
    return h.high_word ^ (std::uint64_t{h.src} << 48);
  }

  std::optional<DirectionOrderRouting> m_torus;
  std::optional<NcaRouting> m_tree;
};

}  // namespace angara
