#include "models/router/ring_budget.h"

#include <algorithm>

namespace angara {

RingBudget::RingBudget(const Torus& torus, int vcs, int buffer_flits)
    : m_torus(torus), m_vcs(vcs), m_buffer_flits(buffer_flits) {
  // Indexed by the ring's node at coordinate 0 along it: a few unused entries, no lookup table.
  const auto rings = static_cast<std::size_t>(torus.node_count()) *
                     static_cast<std::size_t>(torus.direction_count() * vcs);
  m_counted.assign(rings, 0);
  m_waiting.resize(rings);
}

int RingBudget::ring(NodeId router, PortId dir, VcId vc) const {
  Coords line = m_torus.coords(router);
  line[Direction::from_index(dir).dim] = 0;
  return (static_cast<int>(m_torus.node(line)) * m_torus.direction_count() + dir) * m_vcs + vc;
}

void RingBudget::leave(int ring, int flits, Cycle now) {
  m_counted[ring] -= buffers(flits);
  // A wake-up only schedules the router: none waits anew while these are called.
  for (const auto* wake : m_waiting[ring]) (*wake)(now + 1);
  m_waiting[ring].clear();
}

void RingBudget::wait(int ring, const std::function<void(Cycle)>* wake) {
  auto& waiting = m_waiting[ring];
  if (std::find(waiting.begin(), waiting.end(), wake) == waiting.end()) waiting.push_back(wake);
}

}  // namespace angara
