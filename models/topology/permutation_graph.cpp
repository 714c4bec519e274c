#include "models/topology/permutation_graph.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace angara {

PermutationGraph::PermutationGraph(Family family, int symbols)
    : m_family(family), m_symbols(symbols) {
  if (symbols < 3 || symbols > kMaxSymbols) throw std::logic_error("PermutationGraph: 3..8");
  Order order{};
  std::iota(order.begin(), order.begin() + symbols, 0);
  do {
    m_orders.push_back(order);
  } while (std::next_permutation(order.begin(), order.begin() + symbols));
  const auto n = static_cast<NodeId>(m_orders.size());
  m_neighbor.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(ports()));
  for (NodeId node = 0; node < n; ++node) {
    for (int p = 0; p < ports(); ++p) {
      Order next = m_orders[node];
      if (family == Family::Star) {
        std::swap(next[0], next[p + 1]);
      } else {
        std::reverse(next.begin(), next.begin() + p + 2);
      }
      m_neighbor[node * static_cast<NodeId>(ports()) + p] = rank(next);
    }
  }
  // Breadth-first from node 0; the generators are involutions, so distances are symmetric and a
  // node's first port toward node 0 is the first whose neighbour is one hop nearer.
  constexpr std::uint8_t kUnseen = 0xFF;
  m_distance.assign(n, kUnseen);
  m_distance[0] = 0;
  std::vector<NodeId> frontier{0};
  for (std::size_t i = 0; i < frontier.size(); ++i) {
    for (int p = 0; p < ports(); ++p) {
      const NodeId next = neighbor(frontier[i], static_cast<PortId>(p));
      if (m_distance[next] != kUnseen) continue;
      m_distance[next] = static_cast<std::uint8_t>(m_distance[frontier[i]] + 1);
      m_diameter = m_distance[next];
      frontier.push_back(next);
    }
  }
  m_first_port.assign(n, 0);
  for (NodeId node = 1; node < n; ++node) {
    int p = 0;
    while (m_distance[neighbor(node, static_cast<PortId>(p))] + 1 != m_distance[node]) ++p;
    m_first_port[node] = static_cast<std::uint8_t>(p);
  }
}

NodeId PermutationGraph::rank(const Order& order) const {
  // Lehmer code: the smaller symbols after each position, in the factorial number system.
  NodeId r = 0;
  for (int i = 0; i < m_symbols; ++i) {
    int smaller = 0;
    for (int j = i + 1; j < m_symbols; ++j) smaller += order[j] < order[i];
    r = r * static_cast<NodeId>(m_symbols - i) + static_cast<NodeId>(smaller);
  }
  return r;
}

NodeId PermutationGraph::relative(NodeId a, NodeId b) const {
  const Order& to = m_orders[b];
  Order place{};  // symbol -> its position in b
  for (int i = 0; i < m_symbols; ++i) place[to[i]] = static_cast<std::uint8_t>(i);
  Order w{};
  const Order& from = m_orders[a];
  for (int i = 0; i < m_symbols; ++i) w[i] = place[from[i]];
  return rank(w);
}

std::string PermutationGraph::format(NodeId node) const {
  std::string text = "(";
  for (int i = 0; i < m_symbols; ++i) {
    text += (i ? "," : "") + std::to_string(m_orders[node][i]);
  }
  return text + ")";
}

}  // namespace angara
