#pragma once
// A Cayley graph of the symmetric group: the nodes are the orderings of m symbols, m! of them,
// and a generator rearranges the first positions. Star graph: port p swaps the first symbol with
// the (p + 2)-th; pancake graph: port p reverses the first p + 2 symbols. Both have m - 1 ports,
// and every generator is its own inverse, so port p leads back by port p: a packet arrives on the
// port of the way it travels, as on a torus. Geometry only; routing lives elsewhere.
//
// Node numbers are the orderings' ranks in lexicographic order (node 0: 0, 1, ..., m - 1). The
// graph looks the same from every node: relabelling the symbols so that b becomes node 0 maps a
// to some w, and a route from a to b takes the same ports as one from w to node 0. So one table
// over w, of distances and of the first port on a shortest path, serves every pair.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/ids.h"

namespace angara {

class PermutationGraph {
 public:
  enum class Family { Star, Pancake };
  static constexpr int kMaxSymbols = 8;  // 8! = 40,320 nodes

  // `symbols`: 3 to kMaxSymbols, validated by TopologyParams.
  PermutationGraph(Family family, int symbols);

  Family family() const { return m_family; }
  int symbols() const { return m_symbols; }
  int node_count() const { return static_cast<int>(m_orders.size()); }
  int ports() const { return m_symbols - 1; }
  NodeId neighbor(NodeId node, PortId port) const {
    return m_neighbor[node * static_cast<NodeId>(ports()) + port];
  }
  int min_hops(NodeId a, NodeId b) const { return m_distance[relative(a, b)]; }
  // The first port, in port order, on a shortest path from `a` to `b` (a != b).
  PortId first_port(NodeId a, NodeId b) const { return m_first_port[relative(a, b)]; }
  int diameter() const { return m_diameter; }
  // "(2,0,1,3)": the node's ordering.
  std::string format(NodeId node) const;

 private:
  using Order = std::array<std::uint8_t, kMaxSymbols>;
  // The node `a` becomes when the symbols are relabelled so that `b` becomes node 0.
  NodeId relative(NodeId a, NodeId b) const;
  NodeId rank(const Order& order) const;

  Family m_family;
  int m_symbols;
  std::vector<Order> m_orders;             // [node]
  std::vector<NodeId> m_neighbor;          // [node * ports + port]
  std::vector<std::uint8_t> m_distance;    // [node]: hops to node 0
  std::vector<std::uint8_t> m_first_port;  // [node]: toward node 0
  int m_diameter = 0;
};

}  // namespace angara
