#pragma once
// The machine's point-to-point routing: dimension order on a torus (direction_order_routing.h),
// with adaptive routing beside it if configured (adaptive_routing.h) or around failed links and
// nodes (fault_routing.h); nearest common ancestor on a fat tree (nca_routing.h); generator order
// on a circulant (circulant_routing.h); first port on a shortest path on a star or pancake graph
// (permutation_routing.h).

#include <cstdint>
#include <optional>

#include "models/core/packet.h"
#include "models/routing/adaptive_routing.h"
#include "models/routing/circulant_routing.h"
#include "models/routing/direction_order_routing.h"
#include "models/routing/fault_routing.h"
#include "models/routing/nca_routing.h"
#include "models/routing/permutation_routing.h"
#include "models/topology/topology.h"

namespace angara {

class NetworkRouting {
 public:
  // `seed` draws a fat tree's up paths, breaks ties between a detour's intermediate nodes and
  // draws the random tie rule's ways round even rings;
  // `faults` are a torus's failed links and nodes (throws a ConfigError if some pair of live
  // nodes cannot be routed around them).
  NetworkRouting(const Topology& topology, const RouterParams& params, std::uint64_t seed,
                 const FaultParams& faults = {});

  // The next step at router `here` of the packet with `header`, which arrived on link port
  // `arrived` (none: from the local port) on VC class `vc_class`. Around failures, `leg` is the
  // leg its VC is on and `via` where its first leg ends (via()).
  RouteStep route(NodeId here, std::optional<PortId> arrived, const PacketHeader& header,
                  int vc_class, int leg = 0, NodeId via = 0) const {
    if (m_tree) return m_tree->route(here, header.dst, key(header));
    if (m_circulant) return m_circulant->route(here, header.dst, arrived, vc_class);
    if (m_permutation) return m_permutation->route(here, header.dst, arrived, vc_class);
    std::optional<Direction> by;
    if (arrived) by = Direction::from_index(*arrived);
    if (!m_faults || leg == 1 || via == header.dst) {
      RouteStep step = m_torus->route(here, header.dst, by, vc_class, key(header));
      step.leg = leg;
      return step;
    }
    if (here != via && here != header.dst) {
      return m_torus->route(here, via, by, vc_class, key(header));
    }
    // The second leg starts here, as a packet from the processor would (class 0, the bubble).
    RouteStep step = m_torus->route(here, header.dst, std::nullopt, 0, key(header));
    step.leg = 1;
    return step;
  }
  // Where a packet injected at `src` for `dst` at cycle `at` ends its first leg: `dst` without a
  // detour (and before the links fail: nothing has failed yet).
  NodeId via(NodeId src, NodeId dst, Cycle at) const {
    return m_faults && at >= m_fail_at ? m_faults->via(src, dst) : dst;
  }
  // The failed links and nodes routed around (none: nothing failed).
  const FaultMap* faults() const { return m_faults ? &m_faults->faults() : nullptr; }
  // The cycle they fail at ([faults] fail_at_cycle; 0: from the start).
  Cycle fail_at() const { return m_fail_at; }
  // Free flits the next buffer must show before a packet of `flits` flits may take `step`.
  int required_credits(const RouteStep& step, int flits) const {
    if (m_tree || m_permutation) return flits;
    return m_circulant ? m_circulant->required_credits(step, flits)
                       : m_torus->required_credits(step, flits);
  }
  // How the VCs it routes on are numbered (a fat tree: one class, one leg).
  const VcLayout& vc_layout() const { return m_vcs; }
  // Adaptive routing: the VCs from vc_layout().first_adaptive on are adaptive, those below the
  // escape.
  bool adaptive() const { return m_adaptive.has_value(); }
  // The link ports an adaptive packet at `here` may take toward `dst` (adaptive() only).
  std::uint32_t adaptive_ports(NodeId here, NodeId dst) const {
    return m_adaptive->minimal_ports(here, dst);
  }

 private:
  // A packet's own: its source and its sequence number (or a Message's tag).
  static std::uint64_t key(const PacketHeader& h) {
    return h.high_word ^ (std::uint64_t{h.src} << 48);
  }

  std::optional<DirectionOrderRouting> m_torus;
  std::optional<NcaRouting> m_tree;
  std::optional<CirculantRouting> m_circulant;
  std::optional<PermutationRouting> m_permutation;
  std::optional<AdaptiveRouting> m_adaptive;
  std::optional<FaultRouting> m_faults;
  Cycle m_fail_at = 0;
  VcLayout m_vcs;
};

}  // namespace angara
