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
  const int l = level(router);
  if (l == 0) return m_levels == 1 ? 0 : m_k;
  return l == m_levels - 1 ? m_k : 2 * m_k;
}

LinkEnd FatTree::peer(NodeId router, PortId port) const {
  const int l = level(router), w = index(router);
  if (is_up(router, port)) {  // to level l + 1, the switch with digit l set to j; back by port w_l
    const int j = port - up_port(l, 0);
    const int upper = w + (j - digit(w, l)) * m_power[l];
    return {switch_at(l + 1, upper), static_cast<PortId>(digit(w, l))};
  }
  // Down to level l - 1, the switch with digit l - 1 set to `port`; back by its up port.
  const int lower = w + (port - digit(w, l - 1)) * m_power[l - 1];
  return {switch_at(l - 1, lower), up_port(l - 1, digit(w, l - 1))};
}

int FatTree::common_level(NodeId a, NodeId b) const {
  int l = 0;
  while (a / m_power[l + 1] != b / m_power[l + 1]) ++l;
  return l;
}

std::string FatTree::format(NodeId router) const {
  return fmt::format("switch {}.{}", level(router), index(router));
}

std::string FatTree::node_name(NodeId node) const {
  std::string text = "(";
  for (int d = 0; d < m_levels; ++d) {
    text += (d ? "," : "") + std::to_string(digit(static_cast<int>(node), d));
  }
  return text + ")";
}

}  // namespace angara
