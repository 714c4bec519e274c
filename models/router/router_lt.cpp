#include "models/router/router_lt.h"

namespace angara {

RouterLt::RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock)
    : sc_core::sc_module(name),
      out("out"),
      in("in"),
      m_switch(std::move(core), clock),
      m_clock(clock) {
  in.register_b_transport(this, &RouterLt::b_transport);
}

// `packet.head_at`/`tail_at` say when it is in this router (the annotated delay, in cycles).
void RouterLt::b_transport(int port, FabricPayload& payload, sc_core::sc_time& delay) {
  const Cycle left = enter(static_cast<PortId>(port), *payload.packet);
  if (m_switch.buffers()) delay = m_clock.until(left);  // only the buffers behind ask
}

}  // namespace angara
