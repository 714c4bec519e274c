#include "models/topology/circulant.h"

#include <numeric>
#include <stdexcept>

namespace angara {

Circulant::Circulant(int nodes, std::vector<int> steps)
    : m_nodes(nodes), m_steps(std::move(steps)) {
  if (nodes < 2 || m_steps.empty()) throw std::logic_error("Circulant: 2 nodes, 1 generator");
  // Distances by breadth-first search from node 0.
  constexpr std::uint16_t kUnseen = 0xFFFF;
  m_distance.assign(static_cast<std::size_t>(nodes), kUnseen);
  std::vector<int> frontier{0};
  m_distance[0] = 0;
  for (std::size_t next = 0; next < frontier.size(); ++next) {
    const int at = frontier[next];
    for (PortId p = 0; p < ports(); ++p) {
      const int to = add(static_cast<NodeId>(at), move(p));
      if (m_distance[to] != kUnseen) continue;
      m_distance[to] = static_cast<std::uint16_t>(m_distance[at] + 1);
      m_diameter = m_distance[to];
      frontier.push_back(to);
    }
  }
  if (static_cast<int>(frontier.size()) != nodes) {
    throw std::logic_error("Circulant: the generators do not reach every node");
  }
  // A hop through port p leaves the destination offset - move(p) ahead.
  m_first_port.assign(static_cast<std::size_t>(nodes), 0);
  for (int offset = 1; offset < nodes; ++offset) {
    PortId p = 0;
    while (distance(add(static_cast<NodeId>(offset), -move(p))) + 1 != distance(offset)) ++p;
    m_first_port[offset] = p;
  }
  for (const int s : m_steps) {
    const int per_cycle = nodes / std::gcd(nodes, s);
    std::vector<std::int32_t> position(static_cast<std::size_t>(nodes), -1);
    for (int first = 0; first < nodes; ++first) {
      if (position[first] >= 0) continue;  // the coset's smallest node starts its cycle
      int node = first;
      for (int at = 0; at < per_cycle; ++at, node = add(static_cast<NodeId>(node), s)) {
        position[node] = at;
      }
    }
    m_position.push_back(std::move(position));
    m_cycle.push_back(per_cycle);
  }
}

}  // namespace angara
