#include "models/router/ring_budget.h"

#include <algorithm>

namespace angara {

RingBudget::RingBudget(const Torus& torus, int vcs, int buffer_flits)
    : m_torus(torus), m_vcs(vcs), m_buffer_flits(buffer_flits) {
  // Indexed by the ring's node at coordinate 0 along it: a few unused entries, no lookup table.
  const auto rings = static_cast<std::size_t>(torus.node_count()) *
                     static_cast<std::size_t>(torus.direction_count() * vcs);
  m_counted.assign(rings, 0);
  m_size.assign(rings, 0);
  m_waiting.resize(rings);
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    for (int d = 0; d < torus.direction_count(); ++d) {
      for (int v = 0; v < vcs; ++v) {
        m_size[ring(n, static_cast<PortId>(d), static_cast<VcId>(v))] =
            torus.size(Direction::from_index(d).dim);
      }
    }
  }
}

int RingBudget::ring(NodeId router, PortId dir, VcId vc) const {
  Coords line = m_torus.coords(router);
  line[Direction::from_index(dir).dim] = 0;
  return (static_cast<int>(m_torus.node(line)) * m_torus.direction_count() + dir) * m_vcs + vc;
}

void RingBudget::leave(int ring, int flits, Cycle now) {
  m_counted[ring] -= buffers(flits);
  std::vector<const std::function<void(Cycle)>*> waiting;
  waiting.swap(m_waiting[ring]);
  for (const auto* wake : waiting) (*wake)(now + 1);
}

void RingBudget::wait(int ring, const std::function<void(Cycle)>* wake) {
  auto& waiting = m_waiting[ring];
  if (std::find(waiting.begin(), waiting.end(), wake) == waiting.end()) waiting.push_back(wake);
}

}  // namespace angara
