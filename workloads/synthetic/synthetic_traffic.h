#pragma once
// A node's synthetic traffic (workload.kind = "synthetic", and the collective kind's background):
// messages created by the injection process at a mean of traffic.rate flits per node per cycle,
// each to a destination of the pattern, of one packet of traffic.packet_flits data flits, of
// traffic.message_flits or, bimodal, of one of two lengths; a message longer than a packet goes
// as packets of 16 data flits and the rest, created together. The probe pair's source also sends
// its probes, each at its cycle among the load's messages.

#include <optional>
#include <vector>

#include "models/core/rng.h"
#include "models/endpoint/traffic_source.h"
#include "workloads/params/workload_params.h"
#include "workloads/synthetic/destinations.h"
#include "workloads/synthetic/injection.h"

namespace angara {

// The tag of a probe message's requests (PacketRequest::tag), for the measurement.
inline constexpr std::uint32_t kProbeTag = 1;

// Probe messages a source sends beside its load: to `dst`, created at `cycles` (ascending).
struct ProbeSchedule {
  NodeId dst = 0;
  std::vector<Cycle> cycles;
};

class SyntheticTraffic : public TrafficSource {
 public:
  // `destinations` is the machine's, shared by every node's source.
  SyntheticTraffic(NodeId self, const Destinations& destinations, const TrafficParams& params,
                   std::uint64_t seed, ProbeSchedule probes = {});

  std::optional<PacketRequest> next() override;

 private:
  // Starts the next message, the load's or a probe, whichever is created first; false if none.
  bool start_message();

  NodeId m_self;
  const Destinations& m_destinations;
  int m_flits[2];           // the message lengths, data flits (the same twice if not bimodal)
  double m_first_share;     // of messages with the first
  PacketRequest m_message;  // the message being split into packets
  int m_rest = 0;           // its data flits not handed out yet
  bool m_sends;
  Injection m_injection;
  Rng m_rng;
  std::optional<PacketRequest> m_load;  // the load's next message, drawn (data_flits: its length)
  ProbeSchedule m_probes;
  std::size_t m_next_probe = 0;
};

}  // namespace angara
