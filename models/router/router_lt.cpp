#include "models/router/router_lt.h"

#include <bit>

namespace angara {

RouterLt::RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock)
    : sc_core::sc_module(name),
      out("out"),
      in("in"),
      m_core(std::move(core)),
      m_clock(clock),
      m_outputs(static_cast<std::size_t>(m_core.port_count())) {
  in.register_b_transport(this, &RouterLt::b_transport);
  SC_HAS_PROCESS(RouterLt);
  SC_METHOD(timer);
  sensitive << m_timer;
  dont_initialize();
}

// `packet.head_at`/`tail_at` say when it is in this router (the annotated delay, in cycles).
void RouterLt::b_transport(int port, Packet& packet, sc_core::sc_time& /*delay*/) {
  const auto in_port = static_cast<PortId>(port);
  const RouterCore::Route route = m_core.route(in_port, packet);
  pass(in_port, packet, route, m_core.ready_at(in_port, packet, route));
  // Only the PEGroup taking a packet moves the collective's timer (point-to-point packets do not).
  if ((route.outs >> m_core.pegroup_port()) & 1u) arm_timer();
}

void RouterLt::pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready) {
  const Cycle now = m_clock.now();
  const VcId in_vc = packet.header.vc;
  // Copies leave one after another through the crossbar input; the PEGroup's input also
  // carries its sends one after another (they come out of one call, in order).
  const bool pegroup = port == m_core.pegroup_port();
  Cycle input_free = pegroup ? std::max(ready, m_pegroup_input_free) : ready;
  for (std::uint16_t outs = route.outs; outs; outs &= outs - 1) {
    const auto out_port = static_cast<PortId>(std::countr_zero(outs));
    const bool last = std::popcount(outs) == 1;
    const VcId vc = m_core.out_vc(out_port, packet, route);
    Packet* p = m_core.copy_for(packet, last);
    const Cycle length = m_core.timing(out_port).serialization(p->wire_flits());
    const Cycle start = m_outputs[out_port].book(input_free, length, now);
    input_free = start + length;
    const Grant g{p, port, in_vc, last, out_port, vc, start, start + length};
    if (out_port == m_core.pegroup_port()) {  // never from the PEGroup's own input
      std::vector<CollectiveSend> sends;
      m_core.pegroup_accept(p, port == m_core.local_port(), g.tail_out, sends);
      for (const CollectiveSend& s : sends) send(s);
      continue;
    }
    if (pegroup) m_pegroup_input_free = input_free;
    m_core.forward(*p, g);
    sc_core::sc_time delay = m_clock.until(p->head_at);
    out[out_port]->b_transport(*p, delay);  // the packet may be recycled after this call
  }
}

void RouterLt::send(const CollectiveSend& s) {
  const RouterCore::Route route = m_core.route_send(s);
  if (route.outs == 0) return;
  s.packet->head_at = s.packet->tail_at = s.ready;
  pass(m_core.pegroup_port(), *s.packet, route, s.ready);
}

void RouterLt::timer() {
  std::vector<CollectiveSend> sends;
  m_core.collective()->on_timer(m_clock.now(), sends);
  for (const CollectiveSend& s : sends) send(s);
  arm_timer();
}

void RouterLt::arm_timer() {
  if (!m_core.collective()) return;
  const Cycle due = m_core.collective()->next_timer();
  if (due != kNever) m_timer.notify(m_clock.until(std::max(due, m_clock.now())));
}

}  // namespace angara
