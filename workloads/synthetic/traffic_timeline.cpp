#include "workloads/synthetic/traffic_timeline.h"

#include <algorithm>

#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

TrafficTimeline::Interval& TrafficTimeline::at(Cycle cycle) {
  const auto i = static_cast<std::size_t>(cycle / m_interval);
  if (i >= m_intervals.size()) m_intervals.resize(i + 1);
  return m_intervals[i];
}

void TrafficTimeline::created(const PacketRequest& request, NodeId /*at*/) {
  if (request.tag == kProbeTag) return;
  Interval& i = at(request.created);
  i.created_packets += request.train;
  i.created_flits += static_cast<std::uint64_t>(request.wire_flits());
}

void TrafficTimeline::delivered(const Packet& packet, NodeId /*at*/) {
  if (packet.request_tag == kProbeTag) return;
  Interval& last = at(packet.tail_at);
  last.delivered_packets += packet.train;
  last.delivered_flits += static_cast<std::uint64_t>(packet.wire_flits());
  const Cycle latency = packet.tail_at - packet.created;
  for (std::uint32_t n = 0; n < packet.train; ++n) last.latency.add(latency);
  // Its outstanding cycles, [created, tail_at), over the intervals they touch.
  for (Cycle from = packet.created; from < packet.tail_at;) {
    const Cycle to = std::min(packet.tail_at, (from / m_interval + 1) * m_interval);
    at(from).outstanding_cycles += (to - from) * packet.train;
    from = to;
  }
}

}  // namespace angara
