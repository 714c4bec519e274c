#pragma once
// PcieEndpoint: a node's network adapter between its host and its router (spec sections 4, 5).
// Host side: a TLM-2.0 target for the host's stores into the adapter's window (host_protocol.h)
// and an initiator of DMA writes into host memory. Network side: the TrafficSource of the node's
// router endpoint (injection) and the sink of its ejected packets.
//
// Sending: a message is cut into packets of at most 256 bytes; each becomes ready when its bytes
// have crossed PCIe (CPU stores, or a DMA read for messages longer than node.pio_max_bytes) and
// goes out in send order. Packets take the router's VC sets in turn, so one may overtake another
// on the way; receiving, they are put back in their sender's order (message tag), a message is
// gathered
// in the adapter and, once whole, written by DMA into its channel's receive ring followed by its
// record; when the ring is full, it waits in the adapter until the host releases space.
// Both PCIe directions are booked on calendars in picoseconds (one-way latency, lanes x rate x
// line code, TLP overhead: PcieTiming).
//
// Collective sends (host_protocol.h) enter the router's PEGroup FIFO as broadcast or reduce
// packets. The endpoint keeps at most 16 reduces of a tree in flight, learning from the router's
// credit reports how many have completed (spec section 2, credit block). Received broadcast
// packets and reduce results are written straight into host memory (one-sided), each followed
// by its tree's count of landed broadcast packets or results.
//
// A timing-only send (host_protocol.h) is timed byte for byte, but no values are copied or
// landed; in LT its whole packets go as trains of up to sim.train_packets (Packet::train).
// LT has no back-pressure, so there a message packet's bytes leave the send buffer only as its
// arrival says they could have with it (reached()): a sender is paced by what gets through.

#include <tlm>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <unordered_map>
#include <vector>

#include "models/core/collective_format.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/endpoint/traffic_source.h"
#include "models/pcie/host_link.h"
#include "models/pcie/host_protocol.h"
#include "models/core/message_tag.h"
#include "models/pcie/pcie_timing.h"
#include "models/fabric/fabric_protocol.h"
#include "models/timing/link_calendar.h"
#include "models/timing/wake_calendar.h"
#include "models/fabric/zero_load.h"

namespace angara {

// What every adapter of one machine reads and none changes: one copy, hot in cache for all of
// them (a copy per adapter would be cache misses per message on a large machine).
struct PcieShared {
  PcieShared(int nodes, const Config& config);

  int nodes;  // how many nodes the machine has (a send to another is refused)
  NodeParams node;
  PcieTiming pcie;
  std::uint64_t latency_ps;
  std::uint64_t packet_ps;      // a whole packet's PCIe transfer
  std::uint32_t train_packets;  // at most, per transaction of a timing-only send
  bool paced;                   // LT: message bytes count as sent as reached() says
  ZeroLoad zero_load;
  Cycle packet_time;   // of a whole packet on the injection channel (trains)
  Cycle buffer_drain;  // LT: a router input buffer's flits over a link
};

class PcieEndpoint : public sc_core::sc_module,
                     public TrafficSource,
                     public HostLinkEnd,
                     private WakeCalendar::Sleeper {
 public:
  tlm::tlm_target_socket<> host;    // the window the host stores into
  tlm::tlm_initiator_socket<> dma;  // writes into host memory

  PcieEndpoint(const sc_core::sc_module_name& name, NodeId id, const PcieShared& shared,
               const FabricClock& clock);

  // Called when new packets are ready to send (the router endpoint asks next() again).
  void on_new_work(std::function<void()> wake) { m_wake_injection = std::move(wake); }
  // From now on woken by `calendar` (LT) instead of its own event.
  void wake_on(WakeCalendar& calendar) { m_alarm.use(calendar); }
  // A packet ejected to this node; its tail is in the adapter at packet.tail_at.
  void receive(const Packet& packet);
  // Asks the cache for what receive() reads (a packet is on its way here).
  void prefetch_receive() const {
    __builtin_prefetch(&m_arrivals);
    __builtin_prefetch(&m_arrival_order);
    __builtin_prefetch(static_cast<const WakeCalendar::Sleeper*>(this));
    __builtin_prefetch(&m_alarm);
  }
  // LT: a message packet this endpoint sent has been ejected at its destination (the same call
  // chain that injected it).
  void reached(const Packet& packet);

  // --- TrafficSource (the router endpoint's injection side)
  std::optional<PacketRequest> next() override;
  void fill(Packet& packet, const PacketRequest& request) override;
  void put_back(const PacketRequest& request) override;
  void sent(const Packet& packet) override;

  std::uint64_t messages_sent() const { return m_messages_sent; }
  std::uint64_t messages_received() const { return m_messages_received; }
  const PcieTiming& pcie() const { return m_shared.pcie; }

 private:
  struct OutPacket {
    PacketRequest request;
    std::array<Flit, kMaxDataFlits> data{};
    MessageTag tag;                   // a message's packet
    std::uint64_t landing_offset = 0;  // a broadcast's packet: where it lands, bytes
    std::uint8_t tree = 0, reduce_id = 0, op = 0;  // collective packets
    std::uint32_t bytes = 0;  // message bytes it carries
    bool last = false;        // of its message
    bool timing_only = false;
  };
  // A packet waiting for its tail to be in: the heap orders small keys, the packets stay put.
  struct Arrival {
    Cycle at;
    std::uint64_t order;  // arrival order among equal times: determinism
    std::uint32_t slot;   // in m_arrived
    bool operator>(const Arrival& o) const { return at != o.at ? at > o.at : order > o.order; }
  };
  // Packets from one sender: the next expected, those that came early, the message being built.
  struct Stream {
    std::uint32_t expected = 0;
    std::map<std::uint32_t, Packet> early;
    std::vector<std::byte> message;  // its values (none for a timing-only message)
    std::uint32_t gathered = 0;      // bytes of it so far
    std::uint32_t message_bytes = 0;
  };
  struct Whole {
    host_protocol::MessageRecord record;
    std::vector<std::byte> bytes;  // empty: a timing-only message
  };
  // A channel's receive ring as the adapter sees it.
  struct Ring {
    std::uint64_t written = 0;   // bytes of ring used so far (messages rounded up to 16)
    std::uint64_t released = 0;  // bytes the host has released, as far as the adapter knows
    std::deque<Whole> waiting;   // whole messages that did not fit yet
  };
  // LT: a message packet injected, its bytes not yet counted as sent (see reached()).
  struct Injected {
    std::uint32_t bytes;
    bool last;
    Cycle tail_at;  // in the first router
  };
  struct Release {
    std::uint64_t at_ps;
    int channel;
    std::uint64_t released;
  };

  // The host window's stores.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;

  // A send from the host at `at_ps`; returns when the CPU is done storing, ps.
  std::uint64_t send(const host_protocol::SendHeader& header, const std::byte* data, bool by_dma,
                     std::uint64_t at_ps);
  // `ready(offset, bytes)`: when those bytes of the message are in the adapter, ps.
  template <typename Ready>
  void queue_packets(const host_protocol::SendHeader& header, const std::byte* data, Ready ready);
  void process();  // arrivals and releases due now
  void woken() override { process(); }
  void accept(NodeId src, const Packet& packet);
  void land_collective(const Packet& packet);
  bool window_closed(const OutPacket& out) const;
  void deliver_waiting(int channel);
  void wake_for_release();  // when the next release is due (a message waits for ring space)
  void dma_write(std::uint64_t address, const void* data, std::size_t bytes, std::uint64_t at_ps);
  // Counts `bytes` as sent; the host learns the count by a DMA write at `at` when `last` of its
  // message.
  void count_sent(std::uint32_t bytes, bool last, Cycle at);

  std::uint64_t now_ps() const { return sc_core::sc_time_stamp().value(); }
  // The first cycle at or after `at_ps` (not in the past).
  Cycle cycle_at(std::uint64_t at_ps) const {
    const std::uint64_t period = m_clock.period().value();
    return (at_ps + period - 1) / period;
  }
  std::uint64_t serialization_ps(std::uint64_t bytes) const {
    return m_shared.pcie.serialization_ps(bytes);
  }

  NodeId m_id;
  const PcieShared& m_shared;
  const FabricClock& m_clock;
  std::deque<Injected> m_injected;  // LT, in injection order
  Cycle m_last_counted = 0;         // the send buffer empties in order
  std::function<void()> m_wake_injection;

  LinkCalendar m_to_adapter, m_to_host;  // PCIe, each direction, in ps
  // Single small TLPs toward the host (DMA read requests, send counts): the link's arbiter lets
  // each in between a landing's TLPs, so they do not queue behind landings booked ahead; their
  // share of the link (under 2% of a stream of 4 KiB messages) is left out of the landings'.
  LinkCalendar m_to_host_small;
  LinkCalendar m_fetches;                // DMA reads' completions toward the adapter
  RingQueue<OutPacket> m_out;            // ready or not, in send order
  std::size_t m_handed = 0;              // of m_out, handed out by next() but not yet filled
  Cycle m_last_ready = 0;                // packets leave in send order
  // A map by node with its last entry at hand: traffic comes in long runs to one destination or
  // from one sender (unordered_map entries never move).
  template <typename V>
  class ByNode {
   public:
    V& operator[](NodeId node) {
      if (m_last == nullptr || node != m_last_node) {
        m_last = &m_map[node];
        m_last_node = node;
      }
      return *m_last;
    }

   private:
    std::unordered_map<NodeId, V> m_map;
    NodeId m_last_node = 0;
    V* m_last = nullptr;
  };
  ByNode<std::uint32_t> m_next_packet;  // by destination
  std::uint32_t m_filled_bytes = 0;  // of the packet fill() took last, for sent()
  bool m_filled_last = false;
  std::uint64_t m_tx_accepted = 0;  // bytes the host has sent so far
  std::uint64_t m_tx_sent = 0;      // of those, bytes on the network (reported to the host)
  // Per tree: reduces queued (their ReduceIds), handed to the router, completed by its reports;
  // broadcast packets and reduce results landed in host memory.
  std::array<std::uint32_t, kMaxTrees> m_reduces_queued{}, m_reduces_handed{};
  ReduceReport m_reduces_done{};
  std::array<std::uint64_t, kMaxTrees> m_broadcasts_landed{}, m_results_landed{};

  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> m_arrivals;
  std::vector<Packet> m_arrived;            // slots of the packets in m_arrivals
  std::vector<std::uint32_t> m_free_slots;  // of m_arrived
  std::uint64_t m_arrival_order = 0;
  ByNode<Stream> m_streams;                      // by sender
  std::vector<Ring> m_rings;                     // by channel
  std::deque<Release> m_releases;                // in the order the host wrote them
  Alarm m_alarm;

  std::uint64_t m_messages_sent = 0, m_messages_received = 0;
};

}  // namespace angara
