#include "models/router/router_lt.h"

namespace angara {

RouterLt::RouterLt(const sc_core::sc_module_name& name, const RouterCore& core,
                   const FabricClock& clock)
    : sc_core::sc_module(name),
      out("out"),
      in("in"),
      m_core(core),
      m_clock(clock),
      m_outputs(static_cast<std::size_t>(m_core.port_count())) {
  in.register_b_transport(this, &RouterLt::b_transport);
}

// `packet.head_at`/`tail_at` say when it is in this router (the annotated delay, in cycles).
void RouterLt::b_transport(int port, Packet& packet, sc_core::sc_time& delay) {
  const auto in_port = static_cast<PortId>(port);
  const RouterCore::Route route = m_core.route(in_port, packet);
  const Cycle length = m_core.timing(route.out).serialization(packet.wire_flits());
  const Cycle now = m_clock.now();
  const Cycle start = m_outputs[route.out].book(m_core.ready_at(packet, route), length, now);
  m_core.forward(
      packet, {&packet, in_port, packet.header.vc, route.out, route.out_vc, start, start + length});
  delay = m_clock.until(packet.head_at);
  out[route.out]->b_transport(packet, delay);  // the packet may be recycled after this call
}

}  // namespace angara
