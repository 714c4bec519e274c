#include "models/pcie/transmit_engine.h"

#include <algorithm>
#include <cstring>

#include "models/core/message_tag.h"

namespace angara {

using namespace pcie_units;

TransmitEngine::TransmitEngine(NodeId id, const PcieShared& shared, const FabricClock& clock,
                               tlm::tlm_initiator_socket<>& dma)
    : m_id(id), m_shared(shared), m_clock(clock), m_dma(id, dma) {}

// By CPU stores, a packet's bytes are in once the stores up to its end have crossed. By DMA, the
// adapter's read request goes up after the doorbell and the bytes come down, a packet's worth at
// a time. The completions are booked on a calendar of their own: booked ahead of time, they
// would otherwise make every later store of the CPU wait behind all of them, where the link
// really lets the CPU's few header stores slip in between.
void TransmitEngine::send(const host_protocol::SendHeader& header, const std::byte* data,
                          bool by_dma, std::uint64_t store_start_ps) {
  const std::uint64_t header_bytes = sizeof header;
  if (!by_dma) {
    queue_packets(header, data, [&](std::uint64_t offset, std::uint64_t bytes) {
      return store_start_ps + serialization_ps(header_bytes + offset + bytes) + m_shared.latency_ps;
    });
  } else {
    const std::uint64_t doorbell =
        store_start_ps + serialization_ps(header_bytes) + m_shared.latency_ps;
    const std::uint64_t request = m_to_host_small.book(doorbell, serialization_ps(0), now_ps());
    // The packets' bursts come down back to back: booked at once, each ends where the sum says.
    const std::uint64_t whole = header.bytes / kPacketBytes, rest = header.bytes % kPacketBytes;
    const std::uint64_t rest_ps = rest == 0 ? 0 : serialization_ps(rest);
    std::uint64_t fetched = m_fetches.book(request + serialization_ps(0) + m_shared.latency_ps,
                                           whole * m_shared.packet_ps + rest_ps, now_ps());
    queue_packets(header, data, [&](std::uint64_t /*offset*/, std::uint64_t bytes) {
      fetched += bytes == kPacketBytes ? m_shared.packet_ps : rest_ps;
      return fetched + m_shared.latency_ps;
    });
  }
  m_tx_accepted += header.bytes;
  ++m_messages_sent;
  if (m_wake_injection) m_wake_injection();
}

// Packets leave in send order, each once `ready(offset, bytes)` says its bytes are in the adapter.
// A timing-only send's whole packets go as trains (a partly filled last one alone); a train starts
// as early as its packets, back to back, would each find their bytes in (no store and forward).
template <typename Ready>
void TransmitEngine::queue_packets(const host_protocol::SendHeader& header, const std::byte* data,
                                   Ready ready) {
  using host_protocol::SendKind;
  const bool timing_only = (header.flags & host_protocol::kTimingOnly) != 0;
  // A message's packets are numbered per destination node (message tags).
  std::uint32_t* next_packet =
      header.kind == SendKind::Message ? &m_next_packet[header.dst_node()] : nullptr;
  OutPacket* train = nullptr;  // the train being made up
  std::uint64_t bytes = 0;
  for (std::uint64_t offset = 0; offset < header.bytes; offset += bytes) {
    bytes = std::min<std::uint64_t>(kPacketBytes, header.bytes - offset);
    const Cycle at = cycle_at(m_clock, ready(offset, bytes));
    const bool whole = bytes == kPacketBytes;
    if (train != nullptr && whole && train->request.train < m_shared.train_packets) {
      // Its packets before this one.
      const Cycle ahead = train->request.train * m_shared.packet_time;
      train->request.created = std::max(train->request.created, at > ahead ? at - ahead : 0);
      m_last_ready = train->request.created;
      ++train->request.train;
      train->bytes += static_cast<std::uint32_t>(bytes);
      train->last = offset + bytes == header.bytes;
      if (next_packet != nullptr) ++*next_packet;
      continue;
    }
    m_last_ready = std::max(m_last_ready, at);
    OutPacket& out = m_out.emplace_back();
    train = timing_only && whole ? &out : nullptr;
    out.request.dst = static_cast<NodeId>(header.dst_node());
    out.request.data_flits = static_cast<int>(round_to_flits(bytes) / kFlitBytes);
    out.request.created = m_last_ready;
    if (!timing_only) std::memcpy(m_out_data.emplace_back().data(), data + offset, bytes);
    out.bytes = static_cast<std::uint32_t>(bytes);
    out.last = offset + bytes == header.bytes;
    out.timing_only = timing_only;
    out.tree = header.tree;
    switch (header.kind) {
      case SendKind::Message:
        out.request.kind = PacketKind::Message;
        out.tag = {(*next_packet)++, static_cast<std::uint8_t>(header.dst_channel),
                   static_cast<std::uint8_t>(header.src_channel), header.bytes};
        break;
      case SendKind::Broadcast:
        out.request.kind = PacketKind::Broadcast;
        out.request.dst = m_id;
        out.landing_offset = std::uint64_t{header.landing_flits()} * kFlitBytes + offset;
        break;
      case SendKind::Reduce:
        out.request.kind = PacketKind::Reduce;
        out.op = header.op;
        out.reduce_id =
            static_cast<std::uint8_t>(m_reduces_queued[header.tree]++ % kReducesPerTree);
        break;
    }
  }
}

std::optional<PacketRequest> TransmitEngine::next() {
  if (m_handed == m_out.size() || window_closed(m_out[m_handed])) return std::nullopt;
  const OutPacket& out = m_out[m_handed++];
  if (out.request.kind == PacketKind::Reduce) ++m_reduces_handed[out.tree];
  return out.request;
}

// At most collective.reduces_in_flight reduces of a tree in flight, by the router's last credit
// report.
bool TransmitEngine::window_closed(const OutPacket& out) const {
  return out.request.kind == PacketKind::Reduce &&
         m_reduces_handed[out.tree] - m_reduces_done[out.tree] >= m_shared.reduces_in_flight;
}

void TransmitEngine::credit(const ReduceReport& done) {
  m_reduces_done = done;
  if (m_wake_injection) m_wake_injection();
}

void TransmitEngine::put_back(const PacketRequest& request) {
  --m_handed;
  if (request.kind == PacketKind::Reduce) --m_reduces_handed[m_out[m_handed].tree];
}

void TransmitEngine::fill(Packet& packet) {
  const OutPacket& out = m_out.front();
  if (!out.timing_only) {
    packet.data = m_out_data.front();
    m_out_data.pop_front();
  }
  if (out.request.kind == PacketKind::Message) packet.header.set_tag(out.tag);
  if (out.request.kind == PacketKind::Broadcast)
    packet.header.set_landing_offset(out.landing_offset);
  packet.header.tree_id = out.tree;
  packet.header.reduce_id = out.reduce_id;
  packet.header.op = out.op;
  packet.timing_only = out.timing_only;
  m_filled_bytes = out.bytes;
  m_filled_last = out.last;
  m_out.pop_front();
  --m_handed;
}

// The packet's bytes leave the send buffer; once a message's last packet has left, the host
// learns it from a DMA write of the count (one per message, as a completion).
void TransmitEngine::sent(const Packet& packet) {
  if (m_shared.paced && packet.header.kind == PacketKind::Message) {
    m_injected.push_back({m_filled_bytes, m_filled_last, packet.tail_at});
    return;
  }
  count_sent(m_filled_bytes, m_filled_last, packet.tail_at);
}

// LT without buffers has no back-pressure: a packet leaves the injection channel however far
// ahead of it the network is booked. Its bytes count as sent only once they could have left with
// back-pressure: no earlier than the contention-free transit, plus the time to drain the input
// buffers on the way, before its tail reached the destination. So a node sends no faster than its
// flows get through, and the network holds no more than its buffers would.
void TransmitEngine::reached(const Packet& packet) {
  if (!m_shared.paced) return;
  const Injected injected = m_injected.front();
  m_injected.pop_front();
  // A train waits for others' trains whole where its packets would have slipped in between:
  // its tail may come as much later again without its sender being held.
  const Cycle ahead = m_shared.zero_load.transit(packet.hops) +
                      (packet.hops + 1) * m_shared.buffer_drain +
                      (packet.train - 1) * m_shared.packet_time;
  const Cycle left = packet.tail_at > ahead ? packet.tail_at - ahead : 0;
  m_last_counted = std::max({m_last_counted, injected.tail_at, left});
  count_sent(injected.bytes, injected.last, m_last_counted);
}

void TransmitEngine::count_sent(std::uint32_t bytes, bool last, Cycle at) {
  m_tx_sent += bytes;
  if (!last) return;
  const std::uint64_t tail = at * m_clock.period().value();
  const std::uint64_t length = serialization_ps(sizeof m_tx_sent);
  const std::uint64_t start = m_to_host_small.book(std::max(tail, now_ps()), length, now_ps());
  m_dma.write(host_protocol::kTxSent, &m_tx_sent, sizeof m_tx_sent,
              start + length + m_shared.latency_ps);
}

}  // namespace angara
