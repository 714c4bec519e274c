#pragma once
// Steady-state figures of a synthetic run. Messages created in the measurement window
// [start, end) are the measured ones: their latency (creation to the tail of their last packet
// delivered, so source queueing counts) is recorded once all their packets have arrived. Offered
// load counts the flits created in the window, accepted load the flits whose tail was delivered
// in it. Probe messages (kProbeTag) are measured apart and count in neither load.

#include <deque>
#include <vector>

#include "models/core/latency_stats.h"
#include "models/endpoint/traffic_source.h"

namespace angara {

class TrafficMeasurement : public TrafficObserver {
 public:
  TrafficMeasurement(Cycle start, Cycle end, int nodes)
      : m_start(start), m_end(end), m_messages(static_cast<std::size_t>(nodes)) {}

  void created(const PacketRequest& request, NodeId at) override;
  void delivered(const Packet& packet, NodeId at) override;

  bool in_window(Cycle c) const { return c >= m_start && c < m_end; }
  // Measured messages (probes too) created so far that have not wholly arrived yet.
  std::uint64_t measured_outstanding() const {
    return m_created - m_latency.count() + m_probes_created - m_probe_latency.count();
  }
  std::uint64_t measured_created() const { return m_created; }
  const LatencyStats& latency() const { return m_latency; }
  const LatencyStats& probe_latency() const { return m_probe_latency; }
  std::uint64_t offered_flits() const { return m_offered_flits; }
  std::uint64_t accepted_flits() const { return m_accepted_flits; }
  double mean_hops() const;  // per packet

 private:
  // A source's messages of several packets still on their way, by the sequence number of their
  // first packet (a source's packets are numbered in the order it creates them).
  struct Message {
    std::uint64_t first = 0;
    int packets = 0, missing = 0;
    Cycle last_tail = 0;
    bool probe = false;
  };

  Cycle m_start, m_end;
  std::vector<std::deque<Message>> m_messages;  // [source]
  std::vector<std::uint64_t> m_sequence;        // [source]: the next packet's number
  std::uint64_t m_created = 0;
  std::uint64_t m_probes_created = 0;
  std::uint64_t m_offered_flits = 0;
  std::uint64_t m_accepted_flits = 0;
  std::uint64_t m_packets = 0;
  std::uint64_t m_hops = 0;
  LatencyStats m_latency;
  LatencyStats m_probe_latency;
};

}  // namespace angara
