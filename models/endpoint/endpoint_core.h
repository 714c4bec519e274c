#pragma once
// A traffic endpoint's logic without SystemC: a source queue (so offered load is what the workload
// asks, and latency includes queueing at the source) bounded by sim.source_queue_packets, the
// choice of VC, credits for the router's injection buffers and the injection channel's
// serialization.

#include <algorithm>
#include <optional>
#include <vector>

#include "models/core/packet_ledger.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/endpoint/traffic_source.h"
#include "models/fabric/credit_counter.h"
#include "models/timing/hold_calendar.h"

namespace angara {

class EndpointCore {
 public:
  EndpointCore(NodeId id, TrafficSource& source, TrafficObserver& observer, PacketLedger& ledger,
               PacketPool& pool, const FabricParams& params);

  // How packets are let into the router. Credits (AT): a packet waits for room in the router's
  // injection buffer and starts at the cycle the shell runs. Holds (LT with buffers): a packet
  // starts as soon as it is created, the channel is free and the injection buffer has room,
  // however far ahead of the kernel; the room is known from when the packets before it left that
  // buffer (released()), as each crosses the network within the shell's call. None (LT without
  // buffers): as soon as it is created and the channel is free. In LT the observer hears a
  // packet is on its way (TrafficObserver::on_the_way).
  enum class FlowControl : std::uint8_t { Credits, Holds, None };

  NodeId id() const { return m_id; }
  const ChannelTiming& timing() const { return m_channel; }
  // Set by the shell before it runs; Credits unless told.
  void set_flow_control(FlowControl flow) { m_flow = flow; }

  // Queues what the source created before `horizon` and starts the queue's front on the
  // injection channel if it can start before `horizon` (AT: now + 1; LT: the end of the
  // quantum); the returned packet's head_at/tail_at say when it is in the router's buffer.
  Packet* inject(Cycle now, Cycle horizon);
  // The next cycle after `now` at which inject() can do something with what is known now, or
  // kNever; asked after inject() found nothing more to start before its horizon.
  Cycle next_wakeup(Cycle now);
  // Credits from the router for injection VC `vc`; true if the endpoint waits for them.
  bool return_credits(VcId vc, int flits, Cycle at);
  // Holds only: the packet inject() returned last, on VC `vc`, left the router's injection
  // buffer at `left`.
  void released(VcId vc, Cycle left) {
    m_holds[vc].close(left + m_channel.latency);
    m_room.reset();
  }
  // Takes a delivered packet: checks it, reports it and recycles it.
  void deliver(Packet* packet);
  // Asks the cache for what deliver() reads here (the members up to m_pool).
  void prefetch() const {
    __builtin_prefetch(this);
    __builtin_prefetch(&m_pool);
  }
  // Asks the source again for its next packet (it was given more work since it said none).
  void refresh();
  // Stop creating packets from cycle `at` on (packets already created are still sent).
  void stop_creating(Cycle at) { m_stop = at; }

  std::size_t queued() const { return m_queue.size(); }
  // At most `packets` wait in the queue: the source's next packet stays with it, keeping its
  // creation cycle, until one leaves. Never fewer than one.
  void limit_queue(std::size_t packets) { m_queue_limit = std::max<std::size_t>(packets, 1); }
  // Whether the queue was ever full with a created packet waiting to enter it.
  bool queue_capped() const { return m_capped; }

 private:
  void pull_created(Cycle now);
  // Takes the queue's front and starts it on the injection channel at `start`.
  Packet* start_packet(Cycle start);
  VcId next_vc() const;
  BufferClaim claim(VcId vc, const PacketRequest& request, Cycle from) const;
  Cycle room(VcId vc, Cycle from, const PacketRequest& request, Cycle now);
  VcId vc_for(const PacketRequest& request) const;

  NodeId m_id;
  TrafficSource& m_source;
  TrafficObserver& m_observer;
  PacketLedger& m_ledger;
  PacketPool& m_pool;
  ChannelTiming m_channel;
  VcLayout m_vcs;
  FlowControl m_flow = FlowControl::Credits;

  std::optional<PacketRequest> m_next;  // the source's next request, not yet created
  RingQueue<PacketRequest> m_queue;
  std::size_t m_queue_limit = static_cast<std::size_t>(SimParams{}.source_queue_packets);
  bool m_capped = false;
  Cycle m_stop;
  Cycle m_channel_free = 0;
  std::vector<CreditCounter> m_credits;  // [vc]: free flits in the router's injection buffer
  std::vector<HoldCalendar> m_holds;     // [vc]: the same buffer's holds (Holds)
  // room()'s last question and answer while no hold has changed since: a shell that finds its
  // next packet cannot start yet asks again at once, from the next cycle, for when it can
  // (inject(), next_wakeup()).
  struct RoomAnswer {
    VcId vc;
    Cycle from;
    int flits;
    std::uint32_t train;
    Cycle at;
  };
  std::optional<RoomAnswer> m_room;
  std::uint64_t m_sent = 0;             // ledger (Write) packets, for sequence numbers
  std::uint64_t m_p2p_sent = 0;         // point-to-point packets of any kind: VC sets in turn
  std::uint64_t m_collective_sent = 0;  // collective packets
};

}  // namespace angara
