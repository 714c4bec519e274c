#include "workloads/synthetic/traffic_measurement.h"

#include <algorithm>

#include "models/core/packet_ledger.h"

namespace angara {

void TrafficMeasurement::created(const PacketRequest& request, NodeId at) {
  if (m_sequence.empty()) m_sequence.assign(m_messages.size(), 0);
  const std::uint64_t sequence = m_sequence[at]++;
  if (!in_window(request.created)) return;
  m_offered_flits += static_cast<std::uint64_t>(request.wire_flits());
  if (request.message_packets == 0) return;  // the rest of a message
  ++m_created;
  if (request.message_packets > 1) {
    const auto packets = static_cast<int>(request.message_packets);
    m_messages[at].push_back({sequence, packets, packets, 0});
  }
}

void TrafficMeasurement::delivered(const Packet& packet, NodeId /*at*/) {
  if (in_window(packet.tail_at)) m_accepted_flits += packet.wire_flits();
  if (!in_window(packet.created)) return;
  ++m_packets;
  m_hops += packet.hops;
  // A packet of a message of several: the message is measured when its last packet is in.
  const std::uint64_t sequence =
      packet.header.sequence() & ((std::uint64_t{1} << PacketLedger::kSeqSourceShift) - 1);
  std::deque<Message>& messages = m_messages[packet.header.src];
  const auto after =
      std::upper_bound(messages.begin(), messages.end(), sequence,
                       [](std::uint64_t s, const Message& m) { return s < m.first; });
  if (after == messages.begin() ||
      sequence >= std::prev(after)->first + static_cast<std::uint64_t>(std::prev(after)->packets)) {
    m_latency.add(packet.tail_at - packet.created);
    return;
  }
  Message& m = *std::prev(after);
  m.last_tail = std::max(m.last_tail, packet.tail_at);
  if (--m.missing > 0) return;
  m_latency.add(m.last_tail - packet.created);
  messages.erase(std::prev(after));
}

double TrafficMeasurement::mean_hops() const {
  return m_packets ? static_cast<double>(m_hops) / static_cast<double>(m_packets) : 0.0;
}

}  // namespace angara
