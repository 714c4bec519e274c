#pragma once
// The approximately-timed traffic endpoint: a thin SystemC shell over EndpointCore on the
// router's local port. One method, woken only when a packet can be created or sent.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/endpoint/endpoint_core.h"
#include "models/fabric/fabric_protocol.h"

namespace angara {

class EndpointAt : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<EndpointAt, 0, FabricProtocol> inject;
  tlm_utils::multi_passthrough_target_socket<EndpointAt, 0, FabricProtocol> eject;

  EndpointAt(const sc_core::sc_module_name& name, const EndpointCore& core,
             const FabricClock& clock);

  EndpointCore& core() { return m_core; }
  // Looks at the source again now (it was given more work).
  void wake() {
    m_core.refresh();
    m_wake.notify(sc_core::SC_ZERO_TIME);
  }
  const EndpointCore& core() const { return m_core; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void evaluate();

  EndpointCore m_core;
  const FabricClock& m_clock;
  sc_core::sc_event m_wake;
};

}  // namespace angara
