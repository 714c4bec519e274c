#pragma once
// The approximately-timed traffic endpoint: a thin SystemC shell over EndpointCore on the
// router's local port. One method, woken only when a packet can be created or sent.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/endpoint/endpoint_core.h"
#include "models/fabric/fabric_protocol.h"
#include "models/timing/wake_event.h"

namespace angara {

class EndpointAt : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<EndpointAt, 0, FabricProtocol> inject;
  tlm_utils::multi_passthrough_target_socket<EndpointAt, 0, FabricProtocol> eject;

  EndpointAt(const sc_core::sc_module_name& name, const EndpointCore& core,
             const FabricClock& clock);

  EndpointCore& core() { return m_core; }
  // Looks at the source again (it was given more work): now, and at the next cycle, from which a
  // source shows what it was given during this one (so that what the endpoint does at a cycle
  // does not depend on whether the module that gave the work ran before it in that cycle).
  void wake();
  const EndpointCore& core() const { return m_core; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void evaluate();

  EndpointCore m_core;
  const FabricClock& m_clock;
  WakeEvent m_wake;
  WakeEvent m_look_again;  // the cycle after a wake
  Cycle m_refresh_at = kNever;
};

}  // namespace angara
