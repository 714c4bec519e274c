#pragma once
// One node's share of the collective subnet, as the router sees it (CollectiveUnit): VCUp and
// VCDown routing from the node's rows of the routing tables, and its PEGroup.
//
// VCDown: a broadcast from the parent is copied to every child and, unless the node is transit
// or the broadcast's source, to the processor; a credit packet from the parent goes to the
// PEGroup. VCUp: reduce packets from the children go to the PEGroup (Reducer); a broadcast
// request goes on up, and at the root turns into a broadcast down the tree. From the processor,
// every collective packet enters the PEGroup FIFO.

#include <array>

#include "collectives/subnet/pe_group.h"
#include "collectives/subnet/tree.h"
#include "models/router/collective_unit.h"

namespace angara {

class CollectiveNode : public CollectiveUnit {
 public:
  CollectiveNode(NodeId node, const TreeSet& trees, const CollectiveParams& params,
                 PacketPool& pool, bool in_order, std::unique_ptr<ReducerBlock> reducer = nullptr);

  CollectiveRoute arrival(Packet& packet, bool from_pe) override;
  std::uint8_t directions(const Packet& packet, Toward toward) const override;
  void accept(Packet* packet, bool from_pe, Cycle at, std::vector<CollectiveSend>& out) override {
    m_pegroup.accept(packet, from_pe, at, out);
  }
  Cycle next_timer() const override { return m_pegroup.next_timer(); }
  void set_trace(std::unique_ptr<PeGroupTrace> trace) { m_pegroup.set_trace(std::move(trace)); }
  void on_timer(Cycle now, std::vector<CollectiveSend>& out) override {
    m_pegroup.on_timer(now, out);
  }
  void set_wake(std::function<void(Cycle)> wake) override { m_pegroup.set_wake(std::move(wake)); }

 private:
  const TreeRow& row(int tree) const;

  NodeId m_node;
  TreeSet m_trees;
  PeGroup m_pegroup;
};

}  // namespace angara
