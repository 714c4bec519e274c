#include "collectives/subnet/collective_node.h"

#include <fmt/format.h>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

CollectiveNode::CollectiveNode(NodeId node, const TreeSet& trees, const CollectiveParams& params,
                               PacketPool& pool, bool in_order,
                               std::unique_ptr<ReducerBlock> reducer)
    : m_node(node),
      m_trees(trees),
      m_pegroup(node, trees, params, pool, in_order, std::move(reducer)) {}

const TreeRow& CollectiveNode::row(int tree) const {
  return member_row(m_trees, m_node, tree);
}

CollectiveRoute CollectiveNode::arrival(Packet& p, bool from_pe) {
  CollectiveRoute route;
  if (from_pe) {
    route.pegroup = true;  // the PEGroup FIFO
    return route;
  }
  const TreeRow& r = row(p.header.tree_id);
  switch (p.header.kind) {
    case PacketKind::BroadcastRequest:
      if (!r.is_root) {
        route.dirs = static_cast<std::uint8_t>(1U << r.to_root->index());
        return route;
      }
      p.header.kind = PacketKind::Broadcast;  // the root turns the request around
      [[fallthrough]];
    case PacketKind::Broadcast:
    case PacketKind::AllreduceResult:
      route.dirs = r.dirs;
      route.pe = r.pe && p.header.src != m_node;
      // Back at its source, at a leaf: nowhere to go. The PEGroup takes it and lets it go, so
      // that its buffer space is freed like any other packet's.
      route.pegroup = route.dirs == 0 && !route.pe;
      return route;
    case PacketKind::Reduce:
    case PacketKind::UpCredit:
      route.pegroup = true;
      return route;
    default:
      model_error(report_id::kCollective, fmt::format("node {}: packet kind {} on a collective VC",
                                                      m_node, static_cast<int>(p.header.kind)));
  }
}

std::uint8_t CollectiveNode::directions(const Packet& p, Toward toward) const {
  const TreeRow& r = row(p.header.tree_id);
  if (toward == Toward::Up) return static_cast<std::uint8_t>(1U << r.to_root->index());
  return toward == Toward::Down ? r.dirs : 0;
}

}  // namespace angara
