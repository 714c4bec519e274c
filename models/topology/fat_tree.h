#pragma once
// A k-ary n-tree: k^n nodes under n levels of k^(n-1) switches. Geometry only; routing lives
// elsewhere.
//
// Routers are the switches, level 0 (the leaves) first, each level by index. Node p is on leaf
// p / k, host port p mod k: the leaves' down ports are their local ports, so a leaf's link ports
// are its k up ports (0 .. k-1) and no more; a switch above has k down ports (0 .. k-1) and, below
// the top level, k up ports (k .. 2k-1). Numbers are written in base k: node digits p_0 (least
// significant) .. p_{n-1}, switch digits w_0 .. w_{n-2}. Up port j of switch w at level l leads
// to switch w' = w with digit l set to j at level l + 1, whose down port w_l leads back. So the
// switches at level l above node p are those whose digits l .. n-2 equal p's digits l+1 .. n-1:
// a subtree of k^(l+1) nodes.

#include <string>

#include "models/core/ids.h"

namespace angara {

class FatTree {
 public:
  FatTree(int k, int levels);

  int k() const { return m_k; }
  int levels() const { return m_levels; }
  int node_count() const { return m_nodes; }
  int switches_per_level() const { return m_per_level; }
  int router_count() const { return m_levels * m_per_level; }

  // A switch's level (0: leaves) and index within it.
  int level(NodeId router) const { return static_cast<int>(router) / m_per_level; }
  int index(NodeId router) const { return static_cast<int>(router) % m_per_level; }
  NodeId switch_at(int level, int index) const {
    return static_cast<NodeId>(level * m_per_level + index);
  }
  // The leaf a node is on, by its host port `node mod k`.
  NodeId leaf(NodeId node) const { return node / static_cast<NodeId>(m_k); }
  // Link ports: a leaf k (none in a one-level tree), a switch above 2k, the top level k.
  int ports(NodeId router) const;
  // Port of the j-th up link of a switch at `level`, and whether `port` of `router` is one.
  PortId up_port(int level, int j) const { return static_cast<PortId>(level == 0 ? j : m_k + j); }
  bool is_up(NodeId router, PortId port) const { return level(router) == 0 || port >= m_k; }

  // Where link port `port` of `router` leads: the router and its port there.
  LinkEnd peer(NodeId router, PortId port) const;

  // True if `node` is below switch (`level`, `index`).
  bool below(NodeId node, int level, int index) const {
    return static_cast<int>(node / m_power[level + 1]) == index / m_power[level];
  }
  // The level of the lowest switches above both nodes (their nearest common ancestors).
  int common_level(NodeId a, NodeId b) const;
  // Links on a shortest path: up to the common level and down again (none under one leaf).
  int min_hops(NodeId a, NodeId b) const { return 2 * common_level(a, b); }
  // Digit `d` of `value` in base k.
  int digit(int value, int d) const { return value / m_power[d] % m_k; }

  // "switch l.i".
  std::string format(NodeId router) const;
  // "(p_0,p_1,...)".
  std::string node_name(NodeId node) const;

 private:
  int m_k;
  int m_levels;
  int m_nodes;
  int m_per_level;
  int m_power[17];  // k^0 .. k^levels
};

}  // namespace angara
