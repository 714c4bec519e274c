#pragma once
// Steady-state figures of a synthetic run. Packets created in the measurement window
// [start, end) are the measured ones: their latency (creation to tail delivered, so source
// queueing counts) is recorded whenever they arrive. Offered load counts the flits created in
// the window, accepted load the flits whose tail was delivered in it.

#include "models/core/latency_stats.h"
#include "models/endpoint/traffic_source.h"

namespace angara {

class TrafficMeasurement : public TrafficObserver {
 public:
  TrafficMeasurement(Cycle start, Cycle end) : m_start(start), m_end(end) {}

  void created(const PacketRequest& request) override;
  void delivered(const Packet& packet, NodeId at) override;

  bool in_window(Cycle c) const { return c >= m_start && c < m_end; }
  // Measured packets created so far that have not arrived yet.
  std::uint64_t measured_outstanding() const { return m_created - m_latency.count(); }
  std::uint64_t measured_created() const { return m_created; }
  const LatencyStats& latency() const { return m_latency; }
  std::uint64_t offered_flits() const { return m_offered_flits; }
  std::uint64_t accepted_flits() const { return m_accepted_flits; }
  double mean_hops() const;

 private:
  Cycle m_start, m_end;
  std::uint64_t m_created = 0;
  std::uint64_t m_offered_flits = 0;
  std::uint64_t m_accepted_flits = 0;
  std::uint64_t m_hops = 0;
  LatencyStats m_latency;
};

}  // namespace angara
