#pragma once
// TransmitEngine: a PCIe adapter's sending side. A message is cut into packets of at most 256
// bytes; each becomes ready when its bytes have crossed PCIe (CPU stores, or a DMA read for
// messages longer than node.pio_max_bytes) and goes out in send order, handed to the router
// endpoint as its TrafficSource. Packets take the router's VC sets in turn, so one may overtake
// another on the way (the receiving adapter puts them back in order by their message tags).
//
// Collective sends enter the router's PEGroup FIFO as broadcast or reduce packets; at most 16
// reduces of a tree are in flight, by the router's credit reports of how many have completed
// (the collective subnet's credit block).
//
// A timing-only send is timed byte for byte, but no values are copied; in LT its whole packets go
// as trains of up to sim.train_packets (Packet::train). LT without buffers has no back-pressure,
// so there a message packet's bytes leave the send buffer only as its arrival says they could
// have with it (reached()): a sender is paced by what gets through.

#include <tlm>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "models/core/collective_format.h"
#include "models/core/ring_queue.h"
#include "models/endpoint/traffic_source.h"
#include "models/pcie/by_node.h"
#include "models/pcie/host_dma.h"
#include "models/pcie/host_protocol.h"
#include "models/pcie/pcie_shared.h"
#include "models/timing/link_calendar.h"

namespace angara {

class TransmitEngine {
 public:
  // `dma` carries the send-progress count into host memory.
  TransmitEngine(NodeId id, const PcieShared& shared, const FabricClock& clock,
                 tlm::tlm_initiator_socket<>& dma);

  // Called when new packets are ready to send (the router endpoint asks next() again).
  void on_new_work(std::function<void()> wake) { m_wake_injection = std::move(wake); }

  // A send the host window has accepted, its stores on PCIe from `store_start_ps`: by the CPU
  // (header and bytes), or by DMA (the header a doorbell, the bytes fetched from host memory).
  void send(const host_protocol::SendHeader& header, const std::byte* data, bool by_dma,
            std::uint64_t store_start_ps);
  // Bytes the host has sent that are not yet on the network (the send buffer's fill).
  std::uint64_t buffered() const { return m_tx_accepted - m_tx_sent; }

  // The router's report of completed reduces, per tree.
  void credit(const ReduceReport& done);
  // LT: a message packet this adapter sent has been ejected at its destination.
  void reached(const Packet& packet);

  // The router endpoint's injection side (TrafficSource).
  std::optional<PacketRequest> next();
  void fill(Packet& packet);
  void put_back(const PacketRequest& request);
  void sent(const Packet& packet);

  std::uint64_t messages_sent() const { return m_messages_sent; }

 private:
  struct OutPacket {
    PacketRequest request;
    MessageTag tag;                                // a message's packet
    std::uint64_t landing_offset = 0;              // a broadcast's packet: where it lands, bytes
    std::uint8_t tree = 0, reduce_id = 0, op = 0;  // collective packets
    std::uint32_t bytes = 0;                       // message bytes it carries
    bool last = false;                             // of its message
    bool timing_only = false;
  };
  // LT: a message packet injected, its bytes not yet counted as sent (see reached()).
  struct Injected {
    std::uint32_t bytes;
    bool last;
    Cycle tail_at;  // in the first router
  };

  // `ready(offset, bytes)`: when those bytes of the message are in the adapter, ps.
  template <typename Ready>
  void queue_packets(const host_protocol::SendHeader& header, const std::byte* data, Ready ready);
  bool window_closed(const OutPacket& out) const;
  // Counts `bytes` as sent; the host learns the count by a DMA write at `at` when `last` of its
  // message.
  void count_sent(std::uint32_t bytes, bool last, Cycle at);
  std::uint64_t serialization_ps(std::uint64_t bytes) const {
    return m_shared.pcie.serialization_ps(bytes);
  }

  NodeId m_id;
  const PcieShared& m_shared;
  const FabricClock& m_clock;
  HostDma m_dma;
  std::deque<Injected> m_injected;  // LT, in injection order
  Cycle m_last_counted = 0;         // the send buffer empties in order
  std::function<void()> m_wake_injection;

  // Single small TLPs toward the host (DMA read requests, send counts): the link's arbiter lets
  // each in between a landing's TLPs, so they do not queue behind landings booked ahead; their
  // share of the link (small beside a stream of messages' landings) is left out of the landings'.
  LinkCalendar m_to_host_small;
  LinkCalendar m_fetches;      // DMA reads' completions toward the adapter
  RingQueue<OutPacket> m_out;  // ready or not, in send order
  // The values of those of m_out that carry them, in the same order: a timing-only packet (most
  // of a large study's) then moves no data bytes through the queue.
  RingQueue<std::array<Flit, kMaxDataFlits>> m_out_data;
  std::size_t m_handed = 0;             // of m_out, handed out by next() but not yet filled
  Cycle m_last_ready = 0;               // packets leave in send order
  ByNode<std::uint32_t> m_next_packet;  // by destination
  std::uint32_t m_filled_bytes = 0;     // of the packet fill() took last, for sent()
  bool m_filled_last = false;
  std::uint64_t m_tx_accepted = 0;  // bytes the host has sent so far
  std::uint64_t m_tx_sent = 0;      // of those, bytes on the network (reported to the host)
  // Per tree: reduces queued (their ReduceIds), handed to the router, completed by its reports.
  std::array<std::uint32_t, kMaxTrees> m_reduces_queued{}, m_reduces_handed{};
  ReduceReport m_reduces_done{};
  std::uint64_t m_messages_sent = 0;
};

}  // namespace angara
