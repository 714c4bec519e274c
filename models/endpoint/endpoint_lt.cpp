#include "models/endpoint/endpoint_lt.h"

namespace angara {

EndpointLt::EndpointLt(const sc_core::sc_module_name& name, const EndpointCore& core,
                       const FabricClock& clock, Cycle quantum)
    : sc_core::sc_module(name),
      inject("inject"),
      eject("eject"),
      m_core(core),
      m_clock(clock),
      m_quantum(quantum) {
  eject.register_b_transport(this, &EndpointLt::b_transport);
  SC_HAS_PROCESS(EndpointLt);
  SC_METHOD(evaluate);
  sensitive << m_wake;
}

void EndpointLt::b_transport(int /*port*/, Packet& packet, sc_core::sc_time& /*delay*/) {
  m_core.deliver(&packet);
}

void EndpointLt::evaluate() {
  const Cycle now = m_clock.now();
  const Cycle horizon = (now / m_quantum + 1) * m_quantum;  // end of this quantum
  while (Packet* packet = m_core.inject_unchecked(horizon)) {
    m_core.announce(*packet);
    sc_core::sc_time delay = m_clock.until(packet->head_at);
    inject[0]->b_transport(*packet, delay);
  }
  const Cycle next = m_core.next_start();
  if (next != kNever) m_wake.notify(m_clock.until(next));
}

}  // namespace angara
