#pragma once
// The loosely-timed router: a SystemC shell over LT's switch (lt/lt_switch.h), which routes,
// books and hands on a packet inside one blocking call. The endpoint's call comes in through the
// target socket; from there on the switches call one another (the calls their bound sockets
// would make) and the node's end of the last router's local port. docs/LT.md says where this
// departs from AT.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/fabric/fabric_protocol.h"
#include "models/fabric/injection_end.h"
#include "models/router/lt/lt_switch.h"

namespace angara {

class RouterLt : public sc_core::sc_module, public InjectionEnd {
 public:
  // Bound like RouterAt: out[p]/in[p] for link port p, then the local port.
  tlm_utils::multi_passthrough_initiator_socket<RouterLt, 0, FabricProtocol> out;
  tlm_utils::multi_passthrough_target_socket<RouterLt, 0, FabricProtocol> in;

  RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock);

  const RouterCore& core() const { return m_switch.core(); }
  // What LtFabric wires, once the sockets are bound.
  LtSwitch& lt_switch() { return m_switch; }
  // A packet from the node at local port `port` (the endpoint's call, or the socket's).
  Cycle enter(PortId port, Packet& packet) override {
    return m_switch.hop(port, packet, m_clock.now());
  }

 private:
  // `delay` in: the head's arrival; out: when the packet has left its input buffer here.
  void b_transport(int port, FabricPayload& payload, sc_core::sc_time& delay);

  LtSwitch m_switch;
  const FabricClock& m_clock;
};

}  // namespace angara
