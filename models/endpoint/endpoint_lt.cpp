#include "models/endpoint/endpoint_lt.h"

namespace angara {

EndpointLt::EndpointLt(const sc_core::sc_module_name& name, const EndpointCore& core,
                       const FabricClock& clock, Cycle quantum, WakeCalendar& calendar,
                       bool buffers)
    : sc_core::sc_module(name),
      inject("inject"),
      eject("eject"),
      m_core(core),
      m_clock(clock),
      // With buffers a packet is sent at its own cycle, so that packets are booked nearly in time
      // order and each finds the room AT would show it (sent a quantum ahead, they saturate
      // later than AT's).
      m_quantum(buffers ? 1 : quantum),
      m_buffers(buffers),
      m_calendar(calendar) {
  m_core.set_flow_control(buffers ? EndpointCore::FlowControl::Holds
                                  : EndpointCore::FlowControl::None);
  eject.register_b_transport(this, &EndpointLt::b_transport);
  m_calendar.wake_at(*this, 0);
}

// The sink takes the whole packet when its tail arrives, as in AT.
void EndpointLt::take(Packet& packet, sc_core::sc_time& delay) {
  if (m_buffers) delay = m_clock.until(packet.tail_at);
  m_core.deliver(&packet);
}

void EndpointLt::woken() {
  const Cycle now = m_clock.now();
  const Cycle horizon = (now / m_quantum + 1) * m_quantum;  // end of this quantum
  while (Packet* packet = m_core.inject(now, horizon)) {
    const VcId vc = packet->header.vc;  // the packet may be recycled within the call
    const Cycle left = m_router->enter(m_port, *packet);
    if (m_buffers) m_core.released(vc, left);
  }
  const Cycle next = m_core.next_wakeup(now);
  if (next != kNever) m_calendar.wake_at(*this, next);
}

}  // namespace angara
