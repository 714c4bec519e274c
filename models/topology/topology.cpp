#include "models/topology/topology.h"

namespace angara {

Topology::Topology(const TopologyParams& params) {
  if (params.kind == TopologyKind::FatTree) {
    m_fat_tree.emplace(params.k, params.levels);
  } else {
    m_torus.emplace(params.dims);
  }
}

int Topology::node_count() const {
  return m_torus ? m_torus->node_count() : m_fat_tree->node_count();
}

int Topology::router_count() const {
  return m_torus ? m_torus->node_count() : m_fat_tree->router_count();
}

int Topology::min_hops(NodeId a, NodeId b) const {
  return m_torus ? m_torus->min_hops(a, b) : m_fat_tree->min_hops(a, b);
}

int Topology::max_ports() const {
  return m_torus ? m_torus->direction_count() : 2 * m_fat_tree->k();
}

std::string Topology::format(NodeId router) const {
  return m_torus ? m_torus->format(router) : m_fat_tree->format(router);
}

std::string Topology::port_name(NodeId router, PortId port) const {
  if (m_torus) return Direction::from_index(port).name();
  if (m_fat_tree->is_node(router)) return "up";
  const int k = m_fat_tree->k();
  return port < k ? "down " + std::to_string(port) : "up " + std::to_string(port - k);
}

}  // namespace angara
