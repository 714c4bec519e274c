#include "workloads/synthetic/traffic_measurement.h"

#include <algorithm>

#include "models/core/packet_ledger.h"
#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

void TrafficMeasurement::created(const PacketRequest& request, NodeId at) {
  if (m_sequence.empty()) m_sequence.assign(m_messages.size(), 0);
  const std::uint64_t sequence = m_sequence[at]++;
  if (!in_window(request.created)) return;
  const bool probe = request.tag == kProbeTag;
  if (!probe) m_offered_flits += static_cast<std::uint64_t>(request.wire_flits());
  if (request.message_packets == 0) return;  // the rest of a message
  ++(probe ? m_probes_created : m_created);
  if (request.message_packets > 1 || probe) {
    const auto packets = static_cast<int>(request.message_packets);
    m_messages[at].push_back({sequence, packets, packets, 0, probe});
  }
}

void TrafficMeasurement::delivered(const Packet& packet, NodeId /*at*/) {
  if (!in_window(packet.created)) {  // before the window: load, never a probe
    if (in_window(packet.tail_at)) m_accepted_flits += packet.wire_flits();
    return;
  }
  // A packet of a message of several, or of a probe: the message is measured when its last
  // packet is in.
  const std::uint64_t sequence =
      packet.header.sequence() & ((std::uint64_t{1} << PacketLedger::kSeqSourceShift) - 1);
  std::deque<Message>& messages = m_messages[packet.header.src];
  const auto after =
      std::upper_bound(messages.begin(), messages.end(), sequence,
                       [](std::uint64_t s, const Message& m) { return s < m.first; });
  const bool tracked =
      after != messages.begin() &&
      sequence < std::prev(after)->first + static_cast<std::uint64_t>(std::prev(after)->packets);
  const bool probe = tracked && std::prev(after)->probe;
  if (!probe) {
    if (in_window(packet.tail_at)) m_accepted_flits += packet.wire_flits();
    ++m_packets;
    m_hops += packet.hops;
  }
  if (!tracked) {
    m_latency.add(packet.tail_at - packet.created);
    return;
  }
  Message& m = *std::prev(after);
  m.last_tail = std::max(m.last_tail, packet.tail_at);
  if (--m.missing > 0) return;
  (probe ? m_probe_latency : m_latency).add(m.last_tail - packet.created);
  messages.erase(std::prev(after));
}

double TrafficMeasurement::mean_hops() const {
  return m_packets ? static_cast<double>(m_hops) / static_cast<double>(m_packets) : 0.0;
}

}  // namespace angara
