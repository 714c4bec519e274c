#pragma once
// A traffic endpoint's logic without SystemC: an unbounded source queue (so offered load is what
// the workload asks, and latency includes queueing at the source), the choice of VC, credits for
// the router's injection buffers and the injection channel's serialization.

#include <optional>
#include <vector>

#include "models/core/packet_ledger.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/endpoint/traffic_source.h"
#include "models/fabric/credit_counter.h"

namespace angara {

class EndpointCore {
 public:
  EndpointCore(NodeId id, TrafficSource& source, TrafficObserver& observer, PacketLedger& ledger,
               PacketPool& pool, const Config& config);

  NodeId id() const { return m_id; }
  const ChannelTiming& timing() const { return m_channel; }

  // Queues what the source created up to `now` and starts at most one packet on the injection
  // channel; the returned packet's head_at/tail_at say when it is in the router's buffer.
  Packet* inject(Cycle now);
  // The next cycle after `now` at which inject() can do something with what is known now.
  Cycle next_wakeup(Cycle now);
  // Loosely timed: starts the next packet created before `horizon` on the injection channel as
  // soon as the channel is free, without looking at credits; none if it would start at or
  // after `horizon`.
  Packet* inject_unchecked(Cycle horizon);
  // Loosely timed: the earliest cycle the next packet could start, or kNever if none will.
  Cycle next_start() const;
  // Credits from the router for injection VC `vc`; true if the endpoint waits for them.
  bool return_credits(VcId vc, int flits, Cycle at);
  // Takes a delivered packet: checks it, reports it and recycles it.
  void deliver(Packet* packet);
  // Asks the cache for what deliver() reads here (the members up to m_pool).
  void prefetch() const {
    __builtin_prefetch(this);
    __builtin_prefetch(&m_pool);
  }
  // Tells the observer that `packet`, just started, is on its way (TrafficObserver::on_the_way).
  void announce(const Packet& packet) const { m_observer.on_the_way(packet.header.dst); }
  // Asks the source again for its next packet (it was given more work since it said none).
  void refresh();
  // Stop creating packets from cycle `at` on (packets already created are still sent).
  void stop_creating(Cycle at) { m_stop = at; }

  std::size_t queued() const { return m_queue.size(); }

 private:
  void pull_created(Cycle now);
  // Takes the queue's front and starts it on the injection channel at `start`.
  Packet* start_packet(Cycle start);
  VcId next_vc() const;
  VcId vc_for(const PacketRequest& request) const;

  NodeId m_id;
  TrafficSource& m_source;
  TrafficObserver& m_observer;
  PacketLedger& m_ledger;
  PacketPool& m_pool;
  ChannelTiming m_channel;
  int m_vc_sets, m_vc_classes;
  VcId m_collective_vc;  // the router's PEGroup FIFO on the local port

  std::optional<PacketRequest> m_next;  // the source's next request, not yet created
  RingQueue<PacketRequest> m_queue;
  Cycle m_stop;
  Cycle m_channel_free = 0;
  std::vector<CreditCounter> m_credits;  // [vc]: free flits in the router's injection buffer
  std::uint64_t m_sent = 0;              // ledger (Write) packets, for sequence numbers
  std::uint64_t m_p2p_sent = 0;          // point-to-point packets of any kind: VC sets in turn
  std::uint64_t m_collective_sent = 0;   // collective packets
};

}  // namespace angara
