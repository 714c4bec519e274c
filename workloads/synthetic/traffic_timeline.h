#pragma once
// Synthetic traffic over time ([stats] interval_cycles; docs/STATS.md): the run cut into intervals
// of equal cycles from cycle 0, and for each what was offered and accepted, the latency of the
// packets that arrived in it and how many packets were outstanding. Warm-up, window and drain
// alike, so a transient (a link failing mid-run, a burst) shows where it happens. Every figure is
// whole numbers and samples, so parts counted on several ranks add up to the one-process run's.
// Probe messages (kProbeTag) are left out, as from the loads.

#include <cstdint>
#include <vector>

#include "models/core/latency_stats.h"
#include "models/endpoint/traffic_source.h"

namespace angara {

class TrafficTimeline : public TrafficObserver {
 public:
  explicit TrafficTimeline(Cycle interval) : m_interval(interval) {}

  void created(const PacketRequest& request, NodeId at) override;
  void delivered(const Packet& packet, NodeId at) override;

  struct Interval {
    std::uint64_t created_packets = 0, created_flits = 0;      // by their creation cycle
    std::uint64_t delivered_packets = 0, delivered_flits = 0;  // by their tail's arrival
    // Cycles of the interval each packet spent created and not yet delivered (in its source's
    // queue or in the network), summed: divided by the interval, the mean outstanding.
    std::uint64_t outstanding_cycles = 0;
    LatencyStats latency;  // packets arrived in it: creation to tail delivered, cycles
  };
  Cycle interval() const { return m_interval; }
  // From cycle 0 up to the last one anything happened in (created, delivered or outstanding).
  const std::vector<Interval>& intervals() const;

 private:
  Interval& at(Cycle cycle);

  Cycle m_interval;
  // Kept as counted so far, and the packets outstanding through whole intervals as a change at
  // their first and past their last, folded in by intervals().
  mutable std::vector<Interval> m_intervals;
  mutable std::vector<std::uint64_t> m_spanning;
};

}  // namespace angara
