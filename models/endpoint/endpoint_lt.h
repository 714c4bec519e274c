#pragma once
// The loosely-timed traffic endpoint over EndpointCore. Temporally decoupled: woken once per
// global quantum (or when its next packet is due), it sends every packet that starts before the
// quantum ends, each through the whole network in one call to its router (InjectionEnd, where the
// inject socket leads), its head_at its start. With buffers modelled, a packet waits for room in
// the router's injection buffer, known from when the packets before it left (the cycle each call
// returns), and goes at its own cycle rather than a quantum ahead.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/endpoint/endpoint_core.h"
#include "models/fabric/ejection_end.h"
#include "models/fabric/fabric_protocol.h"
#include "models/fabric/injection_end.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class EndpointLt : public sc_core::sc_module, public EjectionEnd, private WakeCalendar::Sleeper {
 public:
  tlm_utils::multi_passthrough_initiator_socket<EndpointLt, 0, FabricProtocol> inject;
  tlm_utils::multi_passthrough_target_socket<EndpointLt, 0, FabricProtocol> eject;

  // `quantum`: the global quantum in cycles (tlm_global_quantum, set once by the platform);
  // `calendar` wakes it (first at cycle 0); `buffers`: packets wait for room in the router's
  // injection buffer (sim.lt_buffers).
  EndpointLt(const sc_core::sc_module_name& name, const EndpointCore& core,
             const FabricClock& clock, Cycle quantum, WakeCalendar& calendar, bool buffers);

  EndpointCore& core() { return m_core; }
  // Looks at the source again now (it was given more work).
  void wake() {
    m_core.refresh();
    m_calendar.wake_now(*this);
  }
  const EndpointCore& core() const { return m_core; }

  // The sink, bound to `eject` and called by the LT router of this node directly.
  void take(Packet& packet, sc_core::sc_time& delay) override;
  void prefetch() const override { m_core.prefetch(); }
  // Once the sockets are bound, before the run: packets go straight to `router`'s local port
  // `port`, where the inject socket leads (the call the socket would make).
  void connect(InjectionEnd& router, PortId port) {
    m_router = &router;
    m_port = port;
  }

 private:
  void b_transport(int /*port*/, FabricPayload& payload, sc_core::sc_time& delay) {
    take(*payload.packet, delay);
  }
  void woken() override;

  EndpointCore m_core;
  const FabricClock& m_clock;
  Cycle m_quantum;
  bool m_buffers;
  WakeCalendar& m_calendar;
  InjectionEnd* m_router = nullptr;
  PortId m_port = 0;
};

}  // namespace angara
