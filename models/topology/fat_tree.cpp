#include "models/topology/fat_tree.h"

#include <fmt/format.h>

#include <stdexcept>

namespace angara {

FatTree::FatTree(int k, int levels) : m_k(k), m_levels(levels) {
  if (k < 2 || levels < 1 || levels > 16) throw std::logic_error("FatTree: k >= 2, 1 to 16 levels");
  m_power[0] = 1;
  for (int l = 1; l <= levels; ++l) m_power[l] = m_power[l - 1] * k;
  m_nodes = m_power[levels];
  m_per_level = m_power[levels - 1];
}

int FatTree::ports(NodeId router) const {
  if (is_node(router)) return 1;
  return level(router) == m_levels - 1 ? m_k : 2 * m_k;
}

LinkEnd FatTree::peer(NodeId router, PortId port) const {
  if (is_node(router)) {
    const int p = static_cast<int>(router);
    return {switch_at(0, p / m_k), static_cast<PortId>(p % m_k)};
  }
  const int l = level(router), w = index(router);
  if (is_up(port)) {  // to level l + 1, the switch with digit l set to j; back by its port w_l
    const int j = port - m_k;
    const int upper = w + (j - digit(w, l)) * m_power[l];
    return {switch_at(l + 1, upper), static_cast<PortId>(digit(w, l))};
  }
  if (l == 0) return {static_cast<NodeId>(w * m_k + port), 0};
  // Down to level l - 1, the switch with digit l - 1 set to `port`; back by its up port.
  const int lower = w + (port - digit(w, l - 1)) * m_power[l - 1];
  return {switch_at(l - 1, lower), static_cast<PortId>(m_k + digit(w, l - 1))};
}

int FatTree::common_level(NodeId a, NodeId b) const {
  int l = 0;
  while (a / m_power[l + 1] != b / m_power[l + 1]) ++l;
  return l;
}

std::string FatTree::format(NodeId router) const {
  if (!is_node(router)) return fmt::format("switch {}.{}", level(router), index(router));
  std::string text = "(";
  for (int d = 0; d < m_levels; ++d) {
    text += (d ? "," : "") + std::to_string(digit(static_cast<int>(router), d));
  }
  return text + ")";
}

}  // namespace angara
