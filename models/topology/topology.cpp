#include "models/topology/topology.h"

#include <fmt/format.h>

namespace angara {
namespace {

// A star or pancake graph of the params' symbols.
PermutationGraph star_or_pancake(const TopologyParams& params) {
  return {params.group == CayleyGroup::Star ? PermutationGraph::Family::Star
                                            : PermutationGraph::Family::Pancake,
          params.symbols()};
}

}  // namespace

Topology::Topology(const TopologyParams& params) {
  switch (params.kind) {
    case TopologyKind::FatTree:
      m_fat_tree.emplace(params.k, params.levels);
      break;
    case TopologyKind::Cayley:
      if (params.group == CayleyGroup::Circulant) {
        m_circulant.emplace(params.order, params.generators);
      } else {
        m_permutation.emplace(star_or_pancake(params));
      }
      break;
    default:
      m_torus.emplace(params.dims);
  }
}

int Topology::node_count() const {
  if (m_torus) return m_torus->node_count();
  if (m_fat_tree) return m_fat_tree->node_count();
  return m_circulant ? m_circulant->node_count() : m_permutation->node_count();
}

int Topology::router_count() const {
  return m_fat_tree ? m_fat_tree->router_count() : node_count();
}

int Topology::min_hops(NodeId a, NodeId b) const {
  if (m_torus) return m_torus->min_hops(a, b);
  if (m_fat_tree) return m_fat_tree->min_hops(a, b);
  return m_circulant ? m_circulant->min_hops(a, b) : m_permutation->min_hops(a, b);
}

int Topology::max_ports() const {
  if (m_torus) return m_torus->direction_count();
  if (m_fat_tree) return 2 * m_fat_tree->k();
  return m_circulant ? m_circulant->ports() : m_permutation->ports();
}

std::string Topology::format(NodeId router) const {
  if (m_torus) return m_torus->format(router);
  if (m_fat_tree) return m_fat_tree->format(router);
  return m_circulant ? m_circulant->format(router) : m_permutation->format(router);
}

std::string Topology::port_name(NodeId router, PortId port) const {
  if (m_torus) return Direction::from_index(port).name();
  if (m_circulant) return fmt::format("{:+}", m_circulant->move(port));
  if (m_permutation) {
    return m_permutation->family() == PermutationGraph::Family::Star
               ? fmt::format("swap 1,{}", port + 2)
               : fmt::format("flip {}", port + 2);
  }
  const int up = m_fat_tree->up_port(m_fat_tree->level(router), 0);
  return m_fat_tree->is_up(router, port) ? "up " + std::to_string(port - up)
                                         : "down " + std::to_string(port);
}

int diameter(const TopologyParams& params) {
  if (params.kind != TopologyKind::Cayley) return params.diameter();
  if (params.group == CayleyGroup::Circulant) {
    return Circulant(params.order, params.generators).diameter();
  }
  return star_or_pancake(params).diameter();
}

}  // namespace angara
