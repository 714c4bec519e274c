#pragma once
// The machine's wiring, a torus or a fat tree: its routers, their link ports and where each port
// leads. Routers 0 .. node_count() - 1 carry the nodes' endpoints on their local port; a fat
// tree's switches come after them and carry none.

#include <optional>
#include <string>

#include "models/core/params.h"
#include "models/topology/fat_tree.h"
#include "models/topology/torus.h"

namespace angara {

class Topology {
 public:
  explicit Topology(const TopologyParams& params);

  // The one that is built: the other is null.
  const Torus* torus() const { return m_torus ? &*m_torus : nullptr; }
  const FatTree* fat_tree() const { return m_fat_tree ? &*m_fat_tree : nullptr; }

  int node_count() const;
  int router_count() const;
  // Link ports of `router`, numbered from 0; its local port comes next (torus: directions).
  // Inline, as peer(): an LT hop asks them.
  int ports(NodeId router) const {
    return m_torus ? m_torus->direction_count() : m_fat_tree->ports(router);
  }
  // Where link port `port` of `router` leads: the router and the input port it arrives on there
  // (torus: the input port is the direction of travel).
  LinkEnd peer(NodeId router, PortId port) const {
    if (m_fat_tree) return m_fat_tree->peer(router, port);
    return {m_torus->neighbor(router, Direction::from_index(port)), port};
  }
  // Links on a shortest path between two nodes.
  int min_hops(NodeId a, NodeId b) const;
  // The most link ports any router has.
  int max_ports() const;
  // A router for messages: "(x,y,z)" on a torus.
  std::string format(NodeId router) const;
  // A link port for messages: "+X" on a torus, "down 3" or "up 0" on a fat tree.
  std::string port_name(NodeId router, PortId port) const;

 private:
  std::optional<Torus> m_torus;
  std::optional<FatTree> m_fat_tree;
};

}  // namespace angara
