#pragma once
// The PEGroup of one router: the PEGroup FIFO's routing block, the Broadcaster, the Reducer and
// the credit block, as plain C++ with their timing. Packets come in from the node's processor
// (collective packets it injects) and from VCUp/VCDown (reduce and credit packets); what goes
// out is a packet and the way it leaves the router (up, down the tree, to the processor, or
// point-to-point), with the cycle it is ready at the crossbar. Both timing shells use it.
//
// Pipeline (cycles from CollectiveParams, docs/COLLECTIVES.md): a packet wholly in the PEGroup
// at cycle t passes the routing block (route_cycles), then its sub-block, each of which handles
// one packet at a time: the Broadcaster takes broadcaster_cycles per packet it issues, the
// Reducer reducer_cycles plus reducer_flit_cycles per data flit per contribution, and hands a
// result off reducer_result_cycles after its last contribution's time.

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "collectives/subnet/credit_block.h"
#include "collectives/subnet/reducer_block.h"
#include "collectives/subnet/tree.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/router/collective_unit.h"
#include "models/router/router_trace.h"

namespace angara {

// Trace signals of a PEGroup (tracing on for its node); -1: not traced.
struct PeGroupTrace {
  PeGroupTrace() {
    reduces.fill(-1);
    up_credits.fill(-1);
  }
  Tracer* tracer = nullptr;
  Tracer::Signal broadcaster_valid = -1, broadcaster_packet = -1;
  Tracer::Signal reducer_valid = -1, reducer_packet = -1;
  std::array<Tracer::Signal, kMaxTrees> reduces{};     // [tree]: reduces in flight in the Reducer
  std::array<Tracer::Signal, kMaxTrees> up_credits{};  // [tree]: credits to send results up
};

class PeGroup {
 public:
  // `trees[id]` is tree id's table, or null for an unused TreeId.
  // `in_order`: packets arrive in time order (AT); false for LT, whose initiators run ahead.
  // `reducer`: the Reducer's implementation; null: the C++ model.
  PeGroup(NodeId node, const TreeSet& trees, const CollectiveParams& params, PacketPool& pool,
          bool in_order, std::unique_ptr<ReducerBlock> reducer = nullptr);

  // A packet wholly in the PEGroup at `at`, from the processor (`from_pe`) or from VCUp/VCDown.
  // Appends what the PEGroup sends because of it.
  void accept(Packet* packet, bool from_pe, Cycle at, std::vector<CollectiveSend>& out);
  // The next cycle the PEGroup acts by itself (a result handed off, a report due), or kNever.
  Cycle next_timer() const;
  // Sends what is due at `now`: results handed off, the report to the processor.
  void on_timer(Cycle now, std::vector<CollectiveSend>& out);

  // Reduces of `tree` from their first contribution until their result leaves the Reducer.
  int reduces_in_flight(int tree) const;
  // How the PEGroup asks its router to act at a cycle it did not know of when the router last
  // asked (next_timer): a Reducer that drives hands results off by itself.
  void set_wake(std::function<void(Cycle)> wake) { m_wake = std::move(wake); }
  void set_trace(std::unique_ptr<PeGroupTrace> trace) { m_trace = std::move(trace); }

 private:
  const TreeRow& row(int tree) const;
  Cycle broadcaster(Cycle at, const Packet& packet);  // ready cycle of a packet it issues
  void trace_busy(Tracer::Signal valid, Tracer::Signal packet, const Packet& p, Cycle start,
                  Cycle end);
  // Each counter is traced when it changes, with its value from `at`.
  void trace_reduces(int tree, Cycle at);
  void trace_up_credits(int tree, Cycle at);
  void reduce(Packet* packet, Cycle at, std::vector<CollectiveSend>& out);
  void leave(Packet* result, Cycle ready, std::vector<CollectiveSend>& out);
  void send_result(Packet* result, Cycle ready, std::vector<CollectiveSend>& out);
  void result_left(int tree, Cycle ready, std::vector<CollectiveSend>& out);
  void report(Cycle now, std::vector<CollectiveSend>& out);
  Packet* new_packet(PacketKind kind, int tree);

  NodeId m_node;
  TreeSet m_trees;
  CollectiveParams m_params;
  PacketPool& m_pool;
  bool m_in_order;
  std::unique_ptr<ReducerBlock> m_reducer;
  CreditBlock m_credits;
  struct HandedOff {
    Packet* result;
    Cycle ready;
  };
  RingQueue<HandedOff> m_handed_off;  // AT: results from the Reducer, leaving at their cycle
  std::function<void(Cycle)> m_wake;
  std::array<RingQueue<Packet*>, kMaxTrees> m_waiting_up;  // results without an up-credit
  Cycle m_broadcaster_free = 0;
  Cycle m_reducer_free = 0;
  std::uint64_t m_made = 0;  // packets the PEGroup created (credits), for sequence numbers
  std::unique_ptr<PeGroupTrace> m_trace;  // null: tracing off
};

}  // namespace angara
