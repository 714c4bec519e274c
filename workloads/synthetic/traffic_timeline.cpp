#include "workloads/synthetic/traffic_timeline.h"

#include <utility>

#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {

TrafficTimeline::Interval& TrafficTimeline::at(Cycle cycle) {
  const auto i = static_cast<std::size_t>(cycle / m_interval);
  if (i >= m_intervals.size()) {
    m_intervals.resize(i + 1);
    m_spanning.resize(i + 1);
  }
  return m_intervals[i];
}

const std::vector<TrafficTimeline::Interval>& TrafficTimeline::intervals() const {
  std::uint64_t spanning = 0;  // packets outstanding through the whole interval
  for (std::size_t k = 0; k < m_intervals.size(); ++k) {
    spanning += std::exchange(m_spanning[k], 0);
    m_intervals[k].outstanding_cycles += spanning * m_interval;
  }
  return m_intervals;
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
  // Its outstanding cycles, [created, tail_at): the parts of its first and last intervals here,
  // the whole intervals between as a span added up when read (a long wait costs no more).
  const Cycle first = packet.created / m_interval, tail = packet.tail_at / m_interval;
  if (first == tail) {
    last.outstanding_cycles += latency * packet.train;
    return;
  }
  m_intervals[first].outstanding_cycles +=
      ((first + 1) * m_interval - packet.created) * packet.train;
  last.outstanding_cycles += (packet.tail_at - tail * m_interval) * packet.train;
  m_spanning[first + 1] += packet.train;
  m_spanning[tail] -= packet.train;  // modulo 2^64, as the sums are
}

}  // namespace angara
