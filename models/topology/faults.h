#pragma once
// The failed links and nodes of a torus ([faults]): those named in the config and those drawn at
// random with the run's seed. A link fails both ways; a failed node's links carry nothing.

#include <cstdint>
#include <string>
#include <vector>

#include "models/core/params.h"
#include "models/topology/torus.h"

namespace angara {

class FaultMap {
 public:
  FaultMap() = default;  // nothing failed
  FaultMap(const Torus& torus, const FaultParams& params, std::uint64_t seed);

  bool any() const { return !m_failed_links.empty() || !m_failed_nodes.empty(); }
  bool node_failed(NodeId node) const { return !m_node.empty() && m_node[node]; }
  // Whether the hop from `node` in direction `d` is unusable: its link or a node at an end failed.
  bool hop_failed(NodeId node, Direction d) const {
    return !m_hop.empty() && m_hop[node * m_directions + d.index()];
  }
  // The failed links (each once, by its node on the minus side and a plus direction) and nodes.
  struct Link {
    NodeId node = 0;
    Direction dir;
  };
  const std::vector<Link>& failed_links() const { return m_failed_links; }
  const std::vector<NodeId>& failed_nodes() const { return m_failed_nodes; }
  int live_nodes() const { return static_cast<int>(m_node.size() - m_failed_nodes.size()); }
  // "links (0,0,0)+X, ...; nodes (1,2,3), ..." naming at most `limit` of each, for messages.
  std::string describe(const Torus& torus, std::size_t limit = 8) const;

 private:
  void fail_link(const Torus& torus, NodeId node, Direction d);

  int m_directions = 0;
  std::vector<bool> m_node;    // [node]
  std::vector<bool> m_hop;     // [node * directions + direction]
  std::vector<bool> m_listed;  // the same: in m_failed_links, by its node and plus direction
  std::vector<Link> m_failed_links;
  std::vector<NodeId> m_failed_nodes;
};

}  // namespace angara
