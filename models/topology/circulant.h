#pragma once
// A circulant graph C_n(s_1 .. s_k), the Cayley graph of the integers mod n with generators
// +-s_j: node i is linked to i + s_j and i - s_j (mod n) for each j. A ring is C_n(1); C_512(1, 8,
// 64) is an 8x8x8 torus whose rings are joined end to end into one spiral per dimension.
// Geometry only; routing lives elsewhere.
//
// Link port 2j leads to i + s_j, port 2j + 1 to i - s_j; a packet arrives on the port of the
// way it travels, as on a torus. The graph is vertex-transitive, so one table by offset, of
// distances from node 0 and of the first port (in port order) one hop nearer, serves every pair.
//
// The links of one generator and sign form cycles, one per coset of the subgroup s_j generates,
// of n / gcd(n, s_j) nodes each. Each cycle has one wrap link, from its last position to its
// first (position: how many steps of +s_j from the coset's smallest node), which the dateline
// scheme uses as a torus ring's.

#include <cstdint>
#include <string>
#include <vector>

#include "models/core/ids.h"

namespace angara {

class Circulant {
 public:
  // `steps`: s_1 .. s_k, validated by TopologyParams (1 .. n - 1, 2s != n, no two alike up to
  // sign, gcd with n of all of them 1).
  Circulant(int nodes, std::vector<int> steps);

  int node_count() const { return m_nodes; }
  int generators() const { return static_cast<int>(m_steps.size()); }
  int ports() const { return 2 * generators(); }
  int step(int generator) const { return m_steps[generator]; }
  // The signed move of link port `port`: +s_j or -s_j.
  int move(PortId port) const { return port % 2 ? -m_steps[port / 2] : m_steps[port / 2]; }

  // The node one hop away through link port `port`.
  NodeId neighbor(NodeId node, PortId port) const { return add(node, move(port)); }
  // True if the hop from `node` through `port` is its cycle's wrap link.
  bool is_wrap_hop(NodeId node, PortId port) const {
    const int at = m_position[port / 2][node];
    return port % 2 ? at == 0 : at == m_cycle[port / 2] - 1;
  }
  // (b - a) mod n: the offset whose distance is the pair's.
  int offset(NodeId a, NodeId b) const { return add(b, -static_cast<int>(a)); }
  // Hops on a shortest path from any node to the node `offset` ahead of it.
  int distance(int offset) const { return m_distance[offset]; }
  int min_hops(NodeId a, NodeId b) const { return distance(offset(a, b)); }
  // The first port, in port order, whose far end is one hop nearer `b` than `a` is (a != b).
  PortId first_port(NodeId a, NodeId b) const { return m_first_port[offset(a, b)]; }
  int diameter() const { return m_diameter; }
  // "(i)".
  std::string format(NodeId node) const { return "(" + std::to_string(node) + ")"; }

 private:
  int add(NodeId node, int delta) const {
    int sum = static_cast<int>(node) + delta;
    if (sum >= m_nodes) sum -= m_nodes;
    if (sum < 0) sum += m_nodes;
    return sum;
  }

  int m_nodes;
  std::vector<int> m_steps;
  std::vector<std::uint16_t> m_distance;              // [offset]
  std::vector<PortId> m_first_port;                   // [offset]
  std::vector<std::vector<std::int32_t>> m_position;  // [generator][node]: place on its cycle
  std::vector<int> m_cycle;                           // [generator]: nodes per cycle
  int m_diameter = 0;
};

}  // namespace angara
