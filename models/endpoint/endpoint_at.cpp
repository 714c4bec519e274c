#include "models/endpoint/endpoint_at.h"

#include <algorithm>

#include "models/core/model_error.h"

namespace angara {

EndpointAt::EndpointAt(const sc_core::sc_module_name& name, const EndpointCore& core,
                       const FabricClock& clock)
    : sc_core::sc_module(name), inject("inject"), eject("eject"), m_core(core), m_clock(clock) {
  eject.register_nb_transport_fw(this, &EndpointAt::nb_transport_fw);
  inject.register_nb_transport_bw(this, &EndpointAt::nb_transport_bw);
  SC_HAS_PROCESS(EndpointAt);
  SC_METHOD(evaluate);
  sensitive << m_wake.event() << m_look_again.event();
}

void EndpointAt::wake() {
  m_core.refresh();
  m_wake.notify(sc_core::SC_ZERO_TIME);
  m_refresh_at = std::min(m_refresh_at, m_clock.now() + 1);
  m_look_again.notify(m_clock.until(m_refresh_at));
}

// Ejection: the sink takes the whole packet when its tail arrives, so the buffer space is free
// again at tail_at and the credits reach the router one channel latency later.
tlm::tlm_sync_enum EndpointAt::nb_transport_fw(int port, FabricPayload& payload,
                                               tlm::tlm_phase& phase, sc_core::sc_time& /*delay*/) {
  if (phase != tlm::BEGIN_REQ)
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the forward phase must be BEGIN_REQ").c_str());
  Packet& packet = *payload.packet;
  FabricPayload credit{nullptr, Credit{packet.header.vc, packet.wire_flits()}};
  tlm::tlm_phase end_req = tlm::END_REQ;
  sc_core::sc_time credit_delay = m_clock.until(packet.tail_at + m_core.timing().latency);
  eject[port]->nb_transport_bw(credit, end_req, credit_delay);
  m_core.deliver(&packet);
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum EndpointAt::nb_transport_bw(int /*port*/, FabricPayload& payload,
                                               tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::END_REQ)
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the backward phase must be END_REQ").c_str());
  const Credit& credit = payload.credit;
  if (m_core.return_credits(credit.vc, credit.flits, m_clock.after(delay))) {
    m_wake.notify(delay);
  }
  return tlm::TLM_ACCEPTED;
}

void EndpointAt::evaluate() {
  const Cycle now = m_clock.now();
  if (m_refresh_at <= now) {
    m_refresh_at = kNever;
    m_core.refresh();
  }
  if (Packet* packet = m_core.inject(now, now + 1)) {
    FabricPayload payload{packet, {}};
    tlm::tlm_phase begin_req = tlm::BEGIN_REQ;
    sc_core::sc_time delay = m_clock.until(packet->head_at);
    inject[0]->nb_transport_fw(payload, begin_req, delay);
  }
  const Cycle next = m_core.next_wakeup(now);
  if (next != kNever) m_wake.notify(m_clock.until(next));
}

}  // namespace angara
