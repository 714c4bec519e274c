#include "models/router/router_at.h"

#include "models/core/model_error.h"

namespace angara {

RouterAt::RouterAt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock)
    : sc_core::sc_module(name), out("out"), in("in"), m_core(std::move(core)), m_clock(clock) {
  in.register_nb_transport_fw(this, &RouterAt::nb_transport_fw);
  out.register_nb_transport_bw(this, &RouterAt::nb_transport_bw);
  SC_HAS_PROCESS(RouterAt);
  SC_METHOD(evaluate);
  sensitive << m_wake.event();
  dont_initialize();
  m_core.set_worm_owner(this);
  if (CollectiveUnit* collective = m_core.collective()) {
    collective->set_wake([this](Cycle cycle) { wake_at(cycle); });
  }
}

tlm::tlm_sync_enum RouterAt::nb_transport_fw(int port, FabricPayload& payload,
                                             tlm::tlm_phase& phase, sc_core::sc_time& /*delay*/) {
  if (phase != tlm::BEGIN_REQ)
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the forward phase must be BEGIN_REQ").c_str());
  Packet& packet = *payload.packet;
  if (m_probe) m_probe->arrival(static_cast<PortId>(port), packet);  // before routing
  const Cycle wake = m_switch.receive(static_cast<PortId>(port), packet);
  if (wake != kNever) wake_at(wake);
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum RouterAt::nb_transport_bw(int port, FabricPayload& payload,
                                             tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::END_REQ)
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the backward phase must be END_REQ").c_str());
  const Cycle at = m_clock.after(delay);
  const Credit& credit = payload.credit;
  if (m_switch.return_credits(static_cast<PortId>(port), credit.vc, credit.flits, at)) {
    wake_at(at);
  }
  return tlm::TLM_ACCEPTED;
}

void RouterAt::evaluate() {
  const Cycle now = m_clock.now();
  // A second run in a cycle allocates nothing: everything that reaches the switch is stamped
  // later than the cycle it arrives in, so the first run saw all there is. (An adaptive packet
  // that lost its best output would otherwise take another in the second run: results would
  // depend on how often SystemC woke the router in a cycle.)
  if (now == m_allocated_at) {
    const Cycle next = m_switch.next_wakeup(now);
    if (next != kNever) wake_at(next);
    return;
  }
  m_allocated_at = now;
  m_grants.clear();
  m_switch.allocate(now, m_grants);
  for (const Grant& g : m_grants) {
    Packet& packet = *g.packet;
    if (m_probe) m_probe->grant(g);
    // Credits first: the upstream reads the VC the packet held here, before forward() changes it.
    // A worm's tail leaves later: worm_tail_left() returns them then.
    // A driven VCUp's driver frees its space (set_vcup_driver).
    if (g.frees_input && g.in_port != m_core.pegroup_port() && g.tail_out != kNever &&
        !m_switch.driven(g.in_port, g.in_vc)) {
      return_upstream(g.in_port, Credit{packet.header.vc, packet.wire_flits()},
                      g.tail_out + m_core.timing(g.in_port).latency);
    }
    if (g.out_port == m_core.pegroup_port()) continue;  // handed over by run_pegroup() below
    m_core.forward(packet, g);
    FabricPayload payload{&packet, {}};
    tlm::tlm_phase begin_req = tlm::BEGIN_REQ;
    sc_core::sc_time head_delay = m_clock.until(packet.head_at);
    out[g.out_port]->nb_transport_fw(payload, begin_req, head_delay);
  }
  m_switch.run_pegroup();
  const Cycle next = m_switch.next_wakeup(now);
  if (next != kNever) wake_at(next);
}

void RouterAt::set_vcup_driver(VcUpDriver& driver) {
  m_switch.set_vcup_driver(&driver);
  driver.attach({[this](Cycle cycle) { wake_at(cycle); },
                 [this](PortId port, int flits, Cycle at) {
                   return_upstream(port, Credit{m_core.vc_up(), flits}, at);
                 }});
}

void RouterAt::worm_tail_left(PortId in_port, VcId in_vc, int flits, Cycle tail) {
  if (in_port == m_core.pegroup_port()) return;
  return_upstream(in_port, Credit{in_vc, flits}, tail + m_core.timing(in_port).latency);
}

void RouterAt::return_upstream(PortId port, Credit credit, Cycle at) {
  FabricPayload payload{nullptr, credit};
  tlm::tlm_phase end_req = tlm::END_REQ;
  sc_core::sc_time credit_delay = m_clock.until(at);
  in[port]->nb_transport_bw(payload, end_req, credit_delay);
}

void RouterAt::wake_at(Cycle cycle) {
  m_wake.notify(m_clock.until(cycle));
}

}  // namespace angara
