#include "models/router/lt/lt_fabric.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "models/router/lt/lt_switch.h"
#include "models/router/lt/prefetch.h"

namespace angara {

LtFabric::LtFabric(std::vector<LtSwitch*> switches, std::vector<EjectionEnd*> endpoints,
                   WakeCalendar& calendar, bool buffers)
    : m_switches(std::move(switches)), m_endpoints(std::move(endpoints)), m_calendar(calendar) {
  if (buffers) {
    std::size_t per_router = 0;
    for (const LtSwitch* sw : m_switches) {
      per_router = std::max(per_router, sw->port_vcs());
    }
    m_buffers = std::make_unique<LtBuffers>(m_switches.size(), per_router);
  }
  for (LtSwitch* sw : m_switches) sw->set_fabric(*this);
}

EjectionEnd* const* LtFabric::endpoints(NodeId r) const {
  const Topology& topology = m_switches[r]->core().shared().topology;
  return topology.locals(r) > 0 ? &m_endpoints[topology.first_node(r)] : nullptr;
}

void LtFabric::plan(NodeId from, const PacketHeader& header) {
  const RouterCore& core = m_switches[from]->core();
  const RouterShared& shared = core.shared();
  const int set_base = shared.vcs.set_base(header.vc);  // no legs: planned without faults only
  const int vcs = core.vc_count();
  NodeId here = from;
  std::optional<PortId> arrived;
  int vc_class = shared.vcs.class_of(header.vc);
  m_plan.begin(header);
  for (;;) {
    const RouteStep step = shared.routing.route(here, arrived, header, vc_class);
    m_plan.add(step);
    const auto port =
        static_cast<PortId>(step.eject ? shared.topology.ports(here) + step.port : step.port);
    m_switches[here]->prefetch_output(port);
    if (m_buffers) prefetch_object(&m_buffers->holds(here)[port * vcs + set_base + step.vc_class]);
    if (step.eject) {
      m_endpoints[shared.topology.first_node(here) + step.port]->prefetch();
      return;
    }
    const LinkEnd next_end = shared.topology.peer(here, port);
    here = next_end.router;
    arrived = next_end.port;
    vc_class = step.vc_class;
    if (m_buffers) {
      prefetch_object(&m_buffers->orders(here)[next_end.port * vcs + set_base + vc_class]);
    }
    m_switches[here]->prefetch_input(next_end.port);
  }
}

}  // namespace angara
