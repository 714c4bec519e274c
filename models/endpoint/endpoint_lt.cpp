#include "models/endpoint/endpoint_lt.h"

namespace angara {

EndpointLt::EndpointLt(const sc_core::sc_module_name& name, const EndpointCore& core,
                       const FabricClock& clock, Cycle quantum, WakeCalendar& calendar)
    : sc_core::sc_module(name),
      inject("inject"),
      eject("eject"),
      m_core(core),
      m_clock(clock),
      m_quantum(quantum),
      m_calendar(calendar) {
  m_core.set_flow_control(EndpointCore::FlowControl::None);
  eject.register_b_transport(this, &EndpointLt::b_transport);
  m_calendar.wake_at(*this, 0);
}

void EndpointLt::take(Packet& packet, sc_core::sc_time& /*delay*/) {
  m_core.deliver(&packet);
}

void EndpointLt::woken() {
  const Cycle now = m_clock.now();
  const Cycle horizon = (now / m_quantum + 1) * m_quantum;  // end of this quantum
  while (Packet* packet = m_core.inject(now, horizon)) {
    sc_core::sc_time delay = m_clock.until(packet->head_at);
    inject[0]->b_transport(*packet, delay);
  }
  const Cycle next = m_core.next_wakeup(now);
  if (next != kNever) m_calendar.wake_at(*this, next);
}

}  // namespace angara
