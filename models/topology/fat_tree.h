#pragma once
// A k-ary n-tree: k^n nodes under n levels of k^(n-1) switches. Geometry only; routing lives
// elsewhere.
//
// Routers 0 .. k^n - 1 are the nodes' adapters, the same router as a torus node's with one link
// (port 0, to a leaf switch) instead of 2 x dims; then the switches, level 0 (the leaves) first,
// each level by index. A switch has k down ports (0 .. k-1) and, below the top level, k up ports
// (k .. 2k-1). Node p is on down port p mod k of leaf switch p / k. Numbers are written in base k:
// node digits p_0 (least significant) .. p_{n-1}, switch digits w_0 .. w_{n-2}. Up port k + j of
// switch w at level l leads to switch w' = w with digit l set to j at level l + 1, whose down port
// w_l leads back. So the switches at level l above node p are those whose digits l .. n-2 equal
// p's digits l+1 .. n-1: a subtree of k^(l+1) nodes.

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
  int router_count() const { return m_nodes + m_levels * m_per_level; }

  bool is_node(NodeId router) const { return router < static_cast<NodeId>(m_nodes); }
  // A switch's level (0: leaves) and index within it.
  int level(NodeId router) const { return static_cast<int>(router - m_nodes) / m_per_level; }
  int index(NodeId router) const { return static_cast<int>(router - m_nodes) % m_per_level; }
  NodeId switch_at(int level, int index) const {
    return static_cast<NodeId>(m_nodes + level * m_per_level + index);
  }
  // Link ports: a node 1; a switch 2k, the top level k.
  int ports(NodeId router) const;
  bool is_up(PortId port) const { return port >= m_k; }

  // Where port `port` of `router` leads: the router and its port there.
  LinkEnd peer(NodeId router, PortId port) const;

  // True if `node` is below switch (`level`, `index`).
  bool below(NodeId node, int level, int index) const {
    return static_cast<int>(node / m_power[level + 1]) == index / m_power[level];
  }
  // The level of the lowest switches above both nodes (their nearest common ancestors).
  int common_level(NodeId a, NodeId b) const;
  // Links on a shortest path: up to the common level and down again.
  int min_hops(NodeId a, NodeId b) const { return a == b ? 0 : 2 * (common_level(a, b) + 1); }
  // Digit `d` of `value` in base k.
  int digit(int value, int d) const { return value / m_power[d] % m_k; }

  // "(p_0,p_1,...)" for a node, "switch l.i" for a switch.
  std::string format(NodeId router) const;

 private:
  int m_k;
  int m_levels;
  int m_nodes;
  int m_per_level;
  int m_power[17];  // k^0 .. k^levels
};

}  // namespace angara
