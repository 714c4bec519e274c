#pragma once
// The loosely-timed fabric as one object, which the machine owns once the sockets are bound: its
// routers and the node ends of their local ports, the machine's wake-up calendar, the buffers of
// every router (sim.lt_buffers), the path planned for the packet entering the network now, and
// the steps its hops have left (path_step.h). A hop goes on to the next router's switch directly
// (where its bound socket would call), and a packet
// entering the network has its path planned and what the path reads fetched from memory at once
// (plan()) instead of one cache miss after another.

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "models/core/packet.h"
#include "models/fabric/ejection_end.h"
#include "models/router/lt/lt_buffers.h"
#include "models/router/lt/path_step.h"
#include "models/routing/network_routing.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class LtSwitch;

// The steps planned for one packet's path, which its hops take instead of routing it again. A
// packet's whole path runs inside one call chain, so the fabric needs one plan at a time; a
// planned path is kept apart from the packet, whose layer (models/core) knows no routing.
class PlannedPath {
 public:
  // Starts the plan of the packet with `header` (its VC changes on the way; its sequence number
  // is unique).
  void begin(const PacketHeader& header) {
    m_header = header;
    m_next = m_count = 0;
  }
  void add(const RouteStep& step) {
    if (m_count < static_cast<int>(m_steps.size())) m_steps[m_count++] = step;
  }
  // The next step of `packet`'s path, if it was planned.
  const RouteStep* take(const Packet& packet) {
    const PacketHeader& h = packet.header;
    if (m_next >= m_count || h.high_word != m_header.high_word || h.src != m_header.src ||
        h.dst != m_header.dst || h.kind != m_header.kind) {
      return nullptr;
    }
    return &m_steps[m_next++];
  }

 private:
  PacketHeader m_header;
  int m_next = 0, m_count = 0;
  std::array<RouteStep, 32> m_steps;
};

class LtFabric {
 public:
  // `switches` by router, `endpoints` by node: link port p of each router leads to the router
  // the topology says, its local ports to its nodes' endpoints. `buffers`: model the buffers
  // behind the outputs (sim.lt_buffers). Hands every switch the fabric.
  LtFabric(std::vector<LtSwitch*> switches, std::vector<EjectionEnd*> endpoints,
           WakeCalendar& calendar, bool buffers);

  LtSwitch& at(NodeId r) const { return *m_switches[r]; }
  // The node ends of router `r`'s local ports, in port order (null: it has none).
  EjectionEnd* const* endpoints(NodeId r) const;
  WakeCalendar& calendar() const { return m_calendar; }
  const LtBuffers* buffers() const { return m_buffers.get(); }  // null: links only
  // Plans the path of the packet with `header` entering the network at router `from` (one
  // without faults or adaptive routing) and asks the cache for what its hops will read.
  void plan(NodeId from, const PacketHeader& header);
  // The next planned step of `packet`'s path, if it is the packet last planned.
  const RouteStep* planned_step(const Packet& packet) { return m_plan.take(packet); }
  // The steps the hops of the paths being booked have left, and the copies (path_step.h).
  std::vector<PathStep>& chain() { return m_chain; }
  std::vector<Copies>& copies() { return m_copies; }

 private:
  std::vector<LtSwitch*> m_switches;
  std::vector<EjectionEnd*> m_endpoints;
  WakeCalendar& m_calendar;
  std::unique_ptr<LtBuffers> m_buffers;
  PlannedPath m_plan;
  std::vector<PathStep> m_chain;
  std::vector<Copies> m_copies;
};

}  // namespace angara
