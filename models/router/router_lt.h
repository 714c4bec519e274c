#pragma once
// The loosely-timed router: no buffers. A packet crosses it inside one blocking call:
// RouterCore routes it and times it as in AT, the output channel is booked in a LinkCalendar
// (contention without back-pressure) and the packet goes on to the next module in the same call
// chain. A packet with several destinations issues its copies one after another through its
// crossbar input, as in AT; copies for the PEGroup are handed over at once and what the PEGroup
// sends goes on in the same call. One method serves the PEGroup's timer only, and only when one
// is set. See docs/ARCHITECTURE.md for where this departs from AT.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <vector>

#include "models/router/fabric_protocol.h"
#include "models/router/link_calendar.h"
#include "models/router/router_core.h"

namespace angara {

class RouterLt : public sc_core::sc_module {
 public:
  // Bound like RouterAt: out[d]/in[d] for direction d, then the local port.
  tlm_utils::multi_passthrough_initiator_socket<RouterLt, 0, FabricProtocol> out;
  tlm_utils::multi_passthrough_target_socket<RouterLt, 0, FabricProtocol> in;

  RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock);

  const RouterCore& core() const { return m_core; }

 private:
  void b_transport(int port, Packet& packet, sc_core::sc_time& delay);
  // Sends `packet` from input `port` to every output of `route`, from cycle `ready` on.
  void pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready);
  void send(const CollectiveSend& send);
  void timer();
  void arm_timer();

  RouterCore m_core;
  const FabricClock& m_clock;
  std::vector<LinkCalendar> m_outputs;  // [port]
  sc_core::sc_event m_timer;
  Cycle m_pegroup_input_free = 0;  // the crossbar input from the PEGroup
};

}  // namespace angara
