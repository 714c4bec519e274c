#pragma once
// Minimal adaptive routing on a torus (the Angara router's VCAdapt), after Duato: at every hop
// a packet may take an adaptive VC in any direction that brings it closer (the way round each
// ring that dimension order would take), or the escape VC of its direction-order step. The
// router prefers an adaptive VC with room; the escape VC is the fallback, and a packet on it may
// take an adaptive VC again at the next router.
//
// Why it cannot deadlock. Switching is virtual cut-through, so a blocked packet sits wholly in
// one buffer and waits only for the next one: there are no indirect dependencies through
// adaptive channels, and the escape channels' dependencies are those of the deterministic
// routing (direction_order_routing.h). A packet on the escape VC goes on along its ring as a
// deterministic packet would (its dateline class kept, no bubble); one coming from an adaptive
// VC or the processor enters the escape network as a deterministic packet enters a ring (the
// bubble; class 0, or 1 across the wrap link). So the escape network alone is deadlock-free by
// the bubble or the dateline, and every packet can always wait for its escape step:
// the escape network drains, and a packet on an adaptive VC eventually finds its escape buffer
// with room. Routes are minimal, so no packet moves forever (no livelock). Tested: the escape
// channels' dependency graph, built from the router's own decisions over every reachable state
// on small tori, is acyclic with the dateline and has cycles only along single rings with the
// bubble; no watchdog at offered 1.0.

#include <cstdint>

#include "models/core/ids.h"
#include "models/topology/torus.h"

namespace angara {

class AdaptiveRouting {
 public:
  explicit AdaptiveRouting(const Torus& torus) : m_torus(torus) {}

  // The link ports of every minimal direction from `here` toward `dst`, a bit per port (none
  // when here == dst).
  std::uint32_t minimal_ports(NodeId here, NodeId dst) const;

 private:
  const Torus& m_torus;
};

}  // namespace angara
