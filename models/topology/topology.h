#pragma once
// The machine's wiring, a torus, a fat tree or a Cayley graph (a circulant, a star or a pancake
// graph): its routers, their link ports and where each port leads, and the routers the nodes'
// endpoints are on. On a torus or Cayley graph router n carries node n on its one local port; a
// fat tree's leaf switch carries k nodes, one on each host port, and the switches above it none.

#include <optional>
#include <string>

#include "models/core/params.h"
#include "models/topology/circulant.h"
#include "models/topology/fat_tree.h"
#include "models/topology/permutation_graph.h"
#include "models/topology/torus.h"

namespace angara {

class Topology {
 public:
  explicit Topology(const TopologyParams& params);

  // The one that is built: the others are null.
  const Torus* torus() const { return m_torus ? &*m_torus : nullptr; }
  const FatTree* fat_tree() const { return m_fat_tree ? &*m_fat_tree : nullptr; }
  const Circulant* circulant() const { return m_circulant ? &*m_circulant : nullptr; }
  const PermutationGraph* permutation_graph() const {
    return m_permutation ? &*m_permutation : nullptr;
  }

  int node_count() const;
  int router_count() const;
  // The router node `node`'s endpoint is on, and the nodes on `router`'s local ports: locals()
  // of them from first_node() on, in port order.
  NodeId router_of(NodeId node) const { return m_fat_tree ? m_fat_tree->leaf(node) : node; }
  int locals(NodeId router) const {
    if (!m_fat_tree) return 1;
    return m_fat_tree->level(router) == 0 ? m_fat_tree->k() : 0;
  }
  NodeId first_node(NodeId router) const {
    return m_fat_tree ? router * static_cast<NodeId>(m_fat_tree->k()) : router;
  }
  // Link ports of `router`, numbered from 0; its local ports come next (torus: directions).
  // Inline, as peer(): an LT hop asks them.
  int ports(NodeId router) const {
    if (m_torus) return m_torus->direction_count();
    if (m_fat_tree) return m_fat_tree->ports(router);
    return m_circulant ? m_circulant->ports() : m_permutation->ports();
  }
  // Where link port `port` of `router` leads: the router and the input port it arrives on there
  // (torus and Cayley graph: the input port is the way of travel).
  LinkEnd peer(NodeId router, PortId port) const {
    if (m_torus) return {m_torus->neighbor(router, Direction::from_index(port)), port};
    if (m_fat_tree) return m_fat_tree->peer(router, port);
    return {
        m_circulant ? m_circulant->neighbor(router, port) : m_permutation->neighbor(router, port),
        port};
  }
  // Links on a shortest path between two nodes.
  int min_hops(NodeId a, NodeId b) const;
  // The most link ports any router has.
  int max_ports() const;
  // A router for messages: "(x,y,z)" on a torus, "switch 1.3" on a fat tree.
  std::string format(NodeId router) const;
  // A node for messages: "(x,y,z)" on a torus, its digits "(1,0,3)" on a fat tree.
  std::string node_name(NodeId node) const {
    return m_fat_tree ? m_fat_tree->node_name(node) : format(node);
  }
  // A link port for messages: "+X" on a torus, "down 3" or "up 0" on a fat tree, "+8" or "-8"
  // (the move) on a circulant, "swap 1,3" on a star graph, "flip 3" on a pancake graph.
  std::string port_name(NodeId router, PortId port) const;

 private:
  std::optional<Torus> m_torus;
  std::optional<FatTree> m_fat_tree;
  std::optional<Circulant> m_circulant;
  std::optional<PermutationGraph> m_permutation;
};

// Hops between the farthest two nodes of the machine `params` describe (a Cayley graph's by
// search).
int diameter(const TopologyParams& params);

}  // namespace angara
