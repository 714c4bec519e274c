#include "workloads/synthetic/traffic_measurement.h"

#include <algorithm>

#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

void TrafficMeasurement::created(const PacketRequest& request, NodeId /*at*/) {
  if (!in_window(request.created)) return;
  const bool probe = request.tag == kProbeTag;
  if (!probe) m_counts.offered_flits += static_cast<std::uint64_t>(request.wire_flits());
  if (request.message_index == 0) ++(probe ? m_counts.probes_created : m_counts.created);
}

void TrafficMeasurement::delivered(const Packet& packet, NodeId /*at*/) {
  if (!in_window(packet.created)) {  // before the window: load, never a probe
    if (in_window(packet.tail_at)) m_counts.accepted_flits += packet.wire_flits();
    return;
  }
  const bool probe = packet.request_tag == kProbeTag;
  if (!probe) {
    if (in_window(packet.tail_at)) m_counts.accepted_flits += packet.wire_flits();
    ++m_counts.packets;
    m_counts.hops += packet.hops;
  }
  if (packet.message_packets == 1 && !probe) {
    m_latency.add(packet.tail_at - packet.created);
    return;
  }
  // A packet of a message of several, or of a probe: the message is measured when its last
  // packet is in (packets of a message may take different VCs and overtake one another).
  const std::uint64_t first = packet.header.sequence() - packet.message_index;
  auto it = m_messages.try_emplace(first, Message{packet.message_packets, 0}).first;
  Message& m = it->second;
  m.last_tail = std::max(m.last_tail, packet.tail_at);
  if (--m.missing > 0) return;
  (probe ? m_probe_latency : m_latency).add(m.last_tail - packet.created);
  m_messages.erase(it);
}

double mean_hops(const TrafficMeasurement::Counts& counts) {
  return counts.packets ? static_cast<double>(counts.hops) / static_cast<double>(counts.packets)
                        : 0.0;
}

}  // namespace angara
