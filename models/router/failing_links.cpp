#include "models/router/failing_links.h"

#include "models/topology/faults.h"

namespace angara {

FailingLinks::FailingLinks(NodeId id, int link_ports, const NetworkRouting& routing) {
  // Links failed from the start are left out: routes never ask for them.
  const FaultMap* faults = routing.faults();
  if (faults == nullptr || routing.fail_at() == 0) return;
  for (int p = 0; p < link_ports; ++p) {
    if (faults->hop_failed(id, Direction::from_index(p))) m_ports |= 1U << p;
  }
  if (m_ports != 0) m_at = routing.fail_at();
}

}  // namespace angara
