#include "models/pcie/receive_engine.h"

#include <algorithm>

#include "models/core/collective_format.h"
#include "models/core/message_tag.h"

namespace angara {

using namespace pcie_units;

ReceiveEngine::ReceiveEngine(NodeId id, const PcieShared& shared, const FabricClock& clock,
                             tlm::tlm_initiator_socket<>& dma)
    : m_shared(shared),
      m_clock(clock),
      m_dma(id, dma),
      m_rings(static_cast<std::size_t>(shared.node.channels)),
      m_alarm(*this, clock) {}

void ReceiveEngine::take_message(const Packet& packet) {
  if (m_free_slots.empty()) {
    m_free_slots.push_back(static_cast<std::uint32_t>(m_arrived.size()));
    m_arrived.emplace_back();
  }
  copy_packet(m_arrived[m_free_slots.back()], packet);
  m_arrivals.push({packet.tail_at, m_arrival_order++, m_free_slots.back()});
  m_free_slots.pop_back();
  m_alarm.at(packet.tail_at);
}

void ReceiveEngine::release(int channel, std::uint64_t released, std::uint64_t at_ps) {
  m_releases.push_back({at_ps, channel, released});
  // Taken when due by the next wake-up; one is needed only for a message waiting for room.
  if (!m_rings[channel].waiting.empty()) wake_for_release();
}

// A broadcast's bytes go where its sender said, a reduce result into its (tree, ReduceId) slot;
// then the tree's count, in the same DMA burst.
void ReceiveEngine::land_collective(const Packet& packet) {
  using namespace host_protocol;
  const PacketHeader& h = packet.header;
  const bool result = h.kind == PacketKind::ReduceResult || h.kind == PacketKind::AllreduceResult;
  const std::uint64_t address =
      result ? kReduceResult +
                   (std::uint64_t{h.tree_id} * kReducesPerTree + h.reduce_id) * kResultSlotBytes
             : kCollectiveArea + h.landing_offset();
  const std::uint64_t bytes = h.data_flits * kFlitBytes;
  const std::uint64_t tail = packet.tail_at * m_clock.period().value();
  // A train lands as its packets would, one burst each.
  const std::uint64_t length = packet.train * serialization_ps(bytes + sizeof(std::uint64_t));
  const std::uint64_t land =
      m_to_host.book_spread(std::max(tail, now_ps()), length, now_ps()) + m_shared.latency_ps;
  if (!packet.timing_only) m_dma.write(address, packet.data.data(), bytes, land);
  const std::uint64_t count = (result ? m_results_landed : m_broadcasts_landed)[h.tree_id] +=
      packet.train;
  m_dma.write((result ? kResultCount : kBroadcastCount) + 8 * std::uint64_t{h.tree_id}, &count,
              sizeof count, land);
}

void ReceiveEngine::process() {
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
  if (std::any_of(m_rings.begin(), m_rings.end(),
                  [](const Ring& r) { return !r.waiting.empty(); })) {
    wake_for_release();
  }
}

void ReceiveEngine::wake_for_release() {
  if (!m_releases.empty()) m_alarm.at(cycle_at(m_clock, m_releases.front().at_ps));
}

// Takes the sender's packets in the order they were sent and gathers each message.
void ReceiveEngine::accept(NodeId src, const Packet& packet) {
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
      ring.waiting.push_back(
          {{src, t.src_channel, 0, 0, stream.message_bytes}, std::move(stream.message)});
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
void ReceiveEngine::deliver_waiting(int channel) {
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
      m_dma.write(base + offset, whole.bytes.data(), first, land);
      if (first < bytes) m_dma.write(base, whole.bytes.data() + first, bytes - first, land);
    }
    m_dma.write(kRecord + static_cast<std::uint64_t>(channel), &whole.record, sizeof whole.record,
                land);
    ring.written += size;
    ++m_messages_received;
    ring.waiting.pop_front();
  }
}

}  // namespace angara
