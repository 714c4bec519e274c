#pragma once
// Steady-state figures of a synthetic run. Messages created in the measurement window
// [start, end) are the measured ones: their latency (creation to the tail of their last packet
// delivered, so source queueing counts) is recorded once all their packets have arrived. Offered
// load counts the flits created in the window, accepted load the flits whose tail was delivered
// in it. Probe messages (kProbeTag) are measured apart and count in neither load. A message is
// tracked where it arrives, from what its packets carry (Packet::message_packets and the rest),
// so a source and its destinations may be counted in different processes and the counts summed.

#include <cstdint>
#include <unordered_map>

#include "models/core/latency_stats.h"
#include "models/endpoint/traffic_source.h"

namespace angara {

class TrafficMeasurement : public TrafficObserver {
 public:
  TrafficMeasurement(Cycle start, Cycle end) : m_start(start), m_end(end) {}

  void created(const PacketRequest& request, NodeId at) override;
  void delivered(const Packet& packet, NodeId at) override;

  bool in_window(Cycle c) const { return c >= m_start && c < m_end; }

  // The counts behind the figures: whole numbers, so parts counted apart add up exactly.
  struct Counts {
    std::uint64_t created = 0, probes_created = 0;            // measured messages, at their sources
    std::uint64_t offered_flits = 0;                          // at the sources
    std::uint64_t accepted_flits = 0, packets = 0, hops = 0;  // at the destinations
  };
  const Counts& counts() const { return m_counts; }
  // Measured messages (probes too) created so far that have not wholly arrived yet (modulo
  // 2^64: a part counted where more arrive than are created is "negative" and sums right).
  std::uint64_t measured_outstanding() const {
    return m_counts.created - m_latency.count() + m_counts.probes_created - m_probe_latency.count();
  }
  const LatencyStats& latency() const { return m_latency; }
  const LatencyStats& probe_latency() const { return m_probe_latency; }

 private:
  // A message of several packets (or a probe) some of whose packets have arrived.
  struct Message {
    std::uint32_t missing = 0;
    Cycle last_tail = 0;
  };

  Cycle m_start, m_end;
  std::unordered_map<std::uint64_t, Message> m_messages;  // by its first packet's sequence
  Counts m_counts;
  LatencyStats m_latency;
  LatencyStats m_probe_latency;
};

// The mean hop count of the measured packets `counts` counted.
double mean_hops(const TrafficMeasurement::Counts& counts);

}  // namespace angara
