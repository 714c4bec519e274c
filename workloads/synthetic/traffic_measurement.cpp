#include "workloads/synthetic/traffic_measurement.h"

namespace angara {

void TrafficMeasurement::created(const PacketRequest& request) {
  if (!in_window(request.created)) return;
  ++m_created;
  m_offered_flits += kHeaderFlits + request.data_flits;
}

void TrafficMeasurement::delivered(const Packet& packet, NodeId /*at*/) {
  if (in_window(packet.tail_at)) m_accepted_flits += packet.wire_flits();
  if (!in_window(packet.created)) return;
  m_latency.add(packet.tail_at - packet.created);
  m_hops += packet.hops;
}

double TrafficMeasurement::mean_hops() const {
  return m_latency.count() ? static_cast<double>(m_hops) / static_cast<double>(m_latency.count())
                           : 0.0;
}

}  // namespace angara
