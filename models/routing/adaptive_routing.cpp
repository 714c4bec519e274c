#include "models/routing/adaptive_routing.h"

namespace angara {

std::uint32_t AdaptiveRouting::minimal_ports(NodeId here, NodeId dst) const {
  const Coords& at = m_torus.coords(here);
  const Coords& to = m_torus.coords(dst);
  std::uint32_t ports = 0;
  for (int dim = 0; dim < m_torus.dims(); ++dim) {
    const int offset = m_torus.ring_offset(at[dim], to[dim], dim);
    if (offset != 0) ports |= 1U << Direction{dim, offset < 0}.index();
  }
  return ports;
}

}  // namespace angara
