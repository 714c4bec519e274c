#include "models/topology/torus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cstdlib>
#include <span>

namespace angara {

Torus::Torus(std::vector<int> dims) : m_sizes(std::move(dims)) {
  for (int d = 0; d < this->dims(); ++d) {
    m_stride[d] = m_nodes;
    m_nodes *= m_sizes[d];
  }
  m_coords.resize(static_cast<std::size_t>(m_nodes));
  for (int n = 0; n < m_nodes; ++n) {
    for (int d = 0; d < this->dims(); ++d) m_coords[n][d] = (n / m_stride[d]) % m_sizes[d];
  }
}

NodeId Torus::node(const Coords& c) const {
  NodeId n = 0;
  for (int d = 0; d < dims(); ++d) n += static_cast<NodeId>(c[d] * m_stride[d]);
  return n;
}

NodeId Torus::neighbor(NodeId node, Direction dir) const {
  const int k = m_sizes[dir.dim];
  const int x = static_cast<int>(node / m_stride[dir.dim]) % k;
  const int next = (x + (dir.negative ? k - 1 : 1)) % k;
  return node + static_cast<NodeId>((next - x) * m_stride[dir.dim]);
}

int Torus::min_hops(NodeId a, NodeId b) const {
  const Coords ca = coords(a), cb = coords(b);
  int hops = 0;
  for (int d = 0; d < dims(); ++d) hops += std::abs(ring_offset(ca[d], cb[d], d));
  return hops;
}

std::string Torus::format(NodeId node) const {
  const Coords c = coords(node);
  return fmt::format("({})", fmt::join(std::span(c.data(), dims()), ","));
}

}  // namespace angara
