#pragma once
// The links of one router that fail during the run ([faults] fail_at_cycle, FaultParams): from
// that cycle on no packet starts on them at either end. One whose transmission began before it
// finishes (the link completes what it has accepted, as a link-level retransmission would make
// sure of); one that would start on it later is diverted by the router: it leaves its input
// buffer through the crossbar into the internal port (the PEGroup's, serialized as any copy to
// it; its credits go back upstream as for any grant), and comes back out of that port as a packet
// injected at this router, routed around the failed links by FaultRouting (a detour's two legs,
// or the direct path when intact), as a PEGroup send of point-to-point traffic is. At most once
// per packet: a route chosen from the failure cycle on crosses no failed link.
//
// Why this cannot deadlock. Before the failure the routes are direction order's (fail_at_cycle
// cannot combine with failed nodes, so nothing else has failed). After it every packet in a link
// VC follows either what is left of such a route or the legs FaultRouting gives, each a
// direction-order path on its own leg's VCs: the leg argument of fault_routing.h holds as it is.
// A packet that meets a failed link never waits on it: it goes into the internal port, which
// takes it whatever it holds (a sink, as ejection is), and enters the network from there as an
// injection does (class 0, the bubble), holding no link buffer while it waits. So no cycle of
// waiting passes through a diverted packet, and the leg networks drain as before. The internal
// port's queue is unbounded in the model: it holds at most the packets that were routed onto the
// failed links before the failure.

#include <cstdint>

#include "models/core/ids.h"
#include "models/routing/network_routing.h"

namespace angara {

class FailingLinks {
 public:
  FailingLinks() = default;
  // The link ports (0 .. `link_ports` - 1) of router `id` whose link fails during the run.
  FailingLinks(NodeId id, int link_ports, const NetworkRouting& routing);

  // Whether the outputs `outs` (a bit per port) include a link that fails during the run; one
  // that has failed by `at`.
  bool toward(std::uint32_t outs) const { return (outs & m_ports) != 0; }
  bool failed(std::uint32_t outs, Cycle at) const { return toward(outs) && at >= m_at; }
  // Whether a packet starting on output `out` at `start` would start on a failed link.
  bool taken(PortId out, Cycle start) const {
    return start >= m_at && ((m_ports >> out) & 1U) != 0;
  }
  Cycle at() const { return m_at; }  // kNever: none fails during the run

 private:
  std::uint32_t m_ports = 0;  // bit per link port
  Cycle m_at = kNever;
};

}  // namespace angara
