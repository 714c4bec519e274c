#include "models/pcie/pcie_endpoint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/core/collective_format.h"
#include "models/core/packet_ledger.h"

namespace angara {
namespace {

constexpr std::uint64_t kFlitBytes = kFlitBits / 8;
constexpr std::uint64_t kPacketBytes = kMaxDataFlits * kFlitBytes;

std::uint64_t round_to_flits(std::uint64_t bytes) {
  return (bytes + kFlitBytes - 1) / kFlitBytes * kFlitBytes;
}

}  // namespace

PcieShared::PcieShared(int node_count, const Config& config)
    : nodes(node_count),
      node(config.node),
      pcie(config.pcie),
      latency_ps(PcieTiming::ps(config.pcie.latency_ns)),
      packet_ps(pcie.serialization_ps(kPacketBytes)),
      train_packets(config.sim.mode == SimMode::Lt
                        ? static_cast<std::uint32_t>(config.sim.train_packets)
                        : 1),
      paced(config.sim.mode == SimMode::Lt),
      zero_load(config.fabric()),
      packet_time(zero_load.local().serialization(kMaxPacketFlits)),
      buffer_drain(zero_load.link().serialization(config.router.buffer_flits)) {}

PcieEndpoint::PcieEndpoint(const sc_core::sc_module_name& name, NodeId id, const PcieShared& shared,
                           const FabricClock& clock)
    : sc_core::sc_module(name),
      host("host"),
      dma("dma"),
      m_id(id),
      m_shared(shared),
      m_clock(clock),
      m_rings(static_cast<std::size_t>(shared.node.channels)),
      m_alarm(*this, clock) {
  host.bind(*this);
  dma.bind(*this);
  SC_HAS_PROCESS(PcieEndpoint);
  SC_METHOD(process);
  sensitive << m_alarm.event();
  dont_initialize();
}

// --- host window

void PcieEndpoint::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  using namespace host_protocol;
  if (gp.get_command() != tlm::TLM_WRITE_COMMAND) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // the window is write-only
    return;
  }
  const std::uint64_t address = gp.get_address();
  const std::uint64_t at = now_ps() + delay.value();
  std::uint64_t done = at;
  if ((address == kPioSend || address == kDmaSend) && gp.get_data_length() >= sizeof(SendHeader)) {
    SendHeader header;
    std::memcpy(&header, gp.get_data_ptr(), sizeof header);
    const bool fits = m_tx_accepted - m_tx_sent + header.bytes <=
                      static_cast<std::uint64_t>(m_shared.node.tx_buffer_bytes);
    const bool to_node = header.kind != SendKind::Broadcast;
    const bool timing_only = (header.flags & kTimingOnly) != 0;
    const bool flags_known = (header.flags & ~kTimingOnly) == 0 &&
                             !(header.kind == SendKind::Reduce && timing_only);
    const bool addressed = header.kind == SendKind::Message
                               ? header.dst_channel < m_rings.size()
                               : header.tree < kMaxTrees && header.kind <= SendKind::Reduce;
    if ((to_node && header.dst_node() >= static_cast<std::uint32_t>(m_shared.nodes)) || !addressed ||
        !flags_known || (header.kind == SendKind::Reduce && header.bytes > kPacketBytes) ||
        header.bytes == 0 ||
        header.bytes > static_cast<std::uint32_t>(m_shared.node.max_message_bytes) ||
        gp.get_data_length() != sizeof header + (timing_only ? 0 : header.bytes) || !fits) {
      gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    done = send(header, reinterpret_cast<const std::byte*>(gp.get_data_ptr()) + sizeof header, address == kDmaSend, at);
  } else if (address >= kRxReleased && address < kRxReleased + 8 * m_rings.size() &&
             address % 8 == 0 && gp.get_data_length() == 8) {
    std::uint64_t released = 0;
    std::memcpy(&released, gp.get_data_ptr(), sizeof released);
    const std::uint64_t length = serialization_ps(sizeof released);
    const std::uint64_t start = m_to_adapter.book(at, length, now_ps());
    done = start + length;
    const int channel = static_cast<int>((address - kRxReleased) / 8);
    m_releases.push_back({done + m_shared.latency_ps, channel, released});
    // Taken when due by the next wake-up; one is needed only for a message waiting for room.
    if (!m_rings[channel].waiting.empty()) wake_for_release();
  } else {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay = sc_core::sc_time::from_value(done - now_ps());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// A send by CPU stores puts header and bytes on the link to the adapter; a DMA send puts only the
// header there, then the adapter's read request goes up and the bytes come down, a packet's worth
// at a time. The completions are booked on a calendar of their own: booked ahead of time, they
// would otherwise make every later store of the CPU wait behind all of them, where the link
// really lets the CPU's few header stores slip in between.
std::uint64_t PcieEndpoint::send(const host_protocol::SendHeader& header, const std::byte* data,
                                 bool by_dma, std::uint64_t at) {
  const std::uint64_t header_bytes = sizeof header;
  const std::uint64_t stored = by_dma ? header_bytes : header_bytes + header.bytes;
  const std::uint64_t store_start = m_to_adapter.book(at, serialization_ps(stored), now_ps());
  const std::uint64_t cpu_done = store_start + serialization_ps(stored);
  if (!by_dma) {
    queue_packets(header, data, [&](std::uint64_t offset, std::uint64_t bytes) {
      return store_start + serialization_ps(header_bytes + offset + bytes) + m_shared.latency_ps;
    });
  } else {
    const std::uint64_t doorbell = cpu_done + m_shared.latency_ps;
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
  return cpu_done;
}

// Packets leave in send order, each once `ready(offset, bytes)` says its bytes are in the adapter.
// A timing-only send's whole packets go as trains (a partly filled last one alone); a train starts
// as early as its packets, back to back, would each find their bytes in (no store and forward).
template <typename Ready>
void PcieEndpoint::queue_packets(const host_protocol::SendHeader& header, const std::byte* data,
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
    const Cycle at = cycle_at(ready(offset, bytes));
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
    if (!timing_only) std::memcpy(out.data.data(), data + offset, bytes);
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
        out.reduce_id = static_cast<std::uint8_t>(m_reduces_queued[header.tree]++ % kReducesPerTree);
        break;
    }
  }
}

// --- network side: injection

std::optional<PacketRequest> PcieEndpoint::next() {
  if (m_handed == m_out.size() || window_closed(m_out[m_handed])) return std::nullopt;
  const OutPacket& out = m_out[m_handed++];
  if (out.request.kind == PacketKind::Reduce) ++m_reduces_handed[out.tree];
  return out.request;
}

// At most 16 reduces of a tree in flight, by the router's last credit report.
bool PcieEndpoint::window_closed(const OutPacket& out) const {
  return out.request.kind == PacketKind::Reduce &&
         m_reduces_handed[out.tree] - m_reduces_done[out.tree] >= kReducesPerTree;
}

void PcieEndpoint::put_back(const PacketRequest& request) {
  --m_handed;
  if (request.kind == PacketKind::Reduce) --m_reduces_handed[m_out[m_handed].tree];
}

void PcieEndpoint::fill(Packet& packet, const PacketRequest& /*request*/) {
  const OutPacket& out = m_out.front();
  packet.data = out.data;
  if (out.request.kind == PacketKind::Message) packet.header.set_tag(out.tag);
  if (out.request.kind == PacketKind::Broadcast) packet.header.set_landing_offset(out.landing_offset);
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
void PcieEndpoint::sent(const Packet& packet) {
  if (m_shared.paced && packet.header.kind == PacketKind::Message) {
    m_injected.push_back({m_filled_bytes, m_filled_last, packet.tail_at});
    return;
  }
  count_sent(m_filled_bytes, m_filled_last, packet.tail_at);
}

// LT has no back-pressure: a packet leaves the injection channel however far ahead of it the
// network is booked. Its bytes count as sent only once they could have left with back-pressure:
// no earlier than the contention-free transit, plus the time to drain the input buffers on the
// way, before its tail reached the destination. So a node sends no faster than its flows get
// through, and the network holds no more than its buffers would.
void PcieEndpoint::reached(const Packet& packet) {
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

void PcieEndpoint::count_sent(std::uint32_t bytes, bool last, Cycle at) {
  m_tx_sent += bytes;
  if (!last) return;
  const std::uint64_t tail = at * m_clock.period().value();
  const std::uint64_t length = serialization_ps(sizeof m_tx_sent);
  const std::uint64_t start = m_to_host_small.book(std::max(tail, now_ps()), length, now_ps());
  dma_write(host_protocol::kTxSent, &m_tx_sent, sizeof m_tx_sent,
            start + length + m_shared.latency_ps);
}

// --- network side: ejection

void PcieEndpoint::receive(const Packet& packet) {
  switch (packet.header.kind) {
    case PacketKind::Message:
      if (m_free_slots.empty()) {
        m_free_slots.push_back(static_cast<std::uint32_t>(m_arrived.size()));
        m_arrived.emplace_back();
      }
      m_arrived[m_free_slots.back()] = packet;
      m_arrivals.push({packet.tail_at, m_arrival_order++, m_free_slots.back()});
      m_free_slots.pop_back();
      m_alarm.at(packet.tail_at);
      return;
    case PacketKind::ReduceReport:  // the router's report of completed reduces, per tree
      m_reduces_done = unpack_report(packet);
      if (m_wake_injection) m_wake_injection();
      return;
    case PacketKind::Broadcast:
    case PacketKind::ReduceResult:
    case PacketKind::AllreduceResult:
      land_collective(packet);
      return;
    default:
      throw ModelError(fmt::format("node {}: the PCIe endpoint cannot take packet #{} of kind {}",
                                   m_id, packet.header.high_word, static_cast<int>(packet.header.kind)));
  }
}

// A broadcast's bytes go where its sender said, a reduce result into its (tree, ReduceId) slot;
// then the tree's count, in the same DMA burst.
void PcieEndpoint::land_collective(const Packet& packet) {
  using namespace host_protocol;
  const PacketHeader& h = packet.header;
  const bool result = h.kind == PacketKind::ReduceResult || h.kind == PacketKind::AllreduceResult;
  const std::uint64_t address =
      result ? kReduceResult + (std::uint64_t{h.tree_id} * kReducesPerTree + h.reduce_id) * kResultSlotBytes
             : kCollectiveArea + h.landing_offset();
  const std::uint64_t bytes = h.data_flits * kFlitBytes;
  const std::uint64_t tail = packet.tail_at * m_clock.period().value();
  // A train lands as its packets would, one burst each.
  const std::uint64_t length = packet.train * serialization_ps(bytes + sizeof(std::uint64_t));
  const std::uint64_t land =
      m_to_host.book_spread(std::max(tail, now_ps()), length, now_ps()) + m_shared.latency_ps;
  if (!packet.timing_only) dma_write(address, packet.data.data(), bytes, land);
  const std::uint64_t count =
      (result ? m_results_landed : m_broadcasts_landed)[h.tree_id] += packet.train;
  dma_write((result ? kResultCount : kBroadcastCount) + 8 * std::uint64_t{h.tree_id}, &count,
            sizeof count, land);
}

void PcieEndpoint::process() {
  const Cycle now = m_clock.now();
  while (!m_releases.empty() && m_releases.front().at_ps <= now_ps()) {
    const Release r = m_releases.front();
    m_releases.pop_front();
    m_rings[r.channel].released = r.released;
    if (!m_rings[r.channel].waiting.empty()) deliver_waiting(r.channel);
  }
  while (!m_arrivals.empty() && m_arrivals.top().at <= now) {
    const std::uint32_t slot = m_arrivals.top().slot;
    m_arrivals.pop();
    accept(m_arrived[slot].header.src, m_arrived[slot]);
    m_free_slots.push_back(slot);
  }
  // One pending notification at a time: every wake-up still needed is set again.
  if (!m_arrivals.empty()) m_alarm.at(m_arrivals.top().at);
  if (std::any_of(m_rings.begin(), m_rings.end(), [](const Ring& r) { return !r.waiting.empty(); })) {
    wake_for_release();
  }
}

void PcieEndpoint::wake_for_release() {
  if (!m_releases.empty()) m_alarm.at(cycle_at(m_releases.front().at_ps));
}

// Takes the sender's packets in the order they were sent and gathers each message.
void PcieEndpoint::accept(NodeId src, const Packet& packet) {
  Stream& stream = m_streams[src];
  const MessageTag tag = packet.header.tag();
  if (tag.packet != stream.expected) {
    stream.early.emplace(tag.packet, packet);
    return;
  }
  const Packet* next = &packet;
  while (next != nullptr) {
    const MessageTag t = next->header.tag();
    if (stream.gathered == 0) stream.message_bytes = t.message_bytes;
    const std::uint32_t bytes = std::min<std::uint32_t>(
        stream.message_bytes - stream.gathered, next->train * next->header.data_flits * kFlitBytes);
    if (!next->timing_only) {
      const auto* first = reinterpret_cast<const std::byte*>(next->data.data());
      stream.message.insert(stream.message.end(), first, first + bytes);
    }
    stream.gathered += bytes;
    if (stream.gathered == stream.message_bytes) {
      Ring& ring = m_rings.at(t.dst_channel);
      ring.waiting.push_back({{src, t.src_channel, 0, 0, stream.message_bytes},
                              std::move(stream.message)});
      stream.message.clear();
      stream.gathered = 0;
      deliver_waiting(t.dst_channel);
    }
    const std::uint32_t train = next->train;
    if (next != &packet) stream.early.erase(stream.expected);
    stream.expected += train;
    auto it = stream.early.find(stream.expected);
    next = it == stream.early.end() ? nullptr : &it->second;
  }
}

// Whole messages go into the ring in the order they became whole, as long as they fit.
void PcieEndpoint::deliver_waiting(int channel) {
  using namespace host_protocol;
  Ring& ring = m_rings[channel];
  const auto ring_bytes = static_cast<std::uint64_t>(m_shared.node.rx_ring_bytes);
  while (!ring.waiting.empty()) {
    Whole& whole = ring.waiting.front();
    const std::uint64_t bytes = whole.record.bytes;
    const std::uint64_t size = round_to_flits(bytes);
    if (ring.written + size - ring.released > ring_bytes) return;
    const std::uint64_t offset = ring.written % ring_bytes;
    whole.record.offset = static_cast<std::uint32_t>(offset);
    const std::uint64_t length = serialization_ps(bytes + sizeof(MessageRecord));
    const std::uint64_t land =
        m_to_host.book_spread(now_ps(), length, now_ps()) + m_shared.latency_ps;
    const std::uint64_t base = kRing + static_cast<std::uint64_t>(channel) * ring_bytes;
    const std::uint64_t first = std::min(bytes, ring_bytes - offset);
    if (!whole.bytes.empty()) {
      dma_write(base + offset, whole.bytes.data(), first, land);
      if (first < bytes) dma_write(base, whole.bytes.data() + first, bytes - first, land);
    }
    dma_write(kRecord + static_cast<std::uint64_t>(channel), &whole.record, sizeof whole.record,
              land);
    ring.written += size;
    ++m_messages_received;
    ring.waiting.pop_front();
  }
}

void PcieEndpoint::dma_write(std::uint64_t address, const void* data, std::size_t bytes,
                             std::uint64_t at_ps) {
  sc_core::sc_time delay = sc_core::sc_time::from_value(at_ps - now_ps());
  post_write(dma, "DMA", m_id, address, data, bytes, delay);
}

}  // namespace angara
