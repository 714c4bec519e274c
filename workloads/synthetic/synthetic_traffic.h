#pragma once
// A node's synthetic traffic (workload.kind = "synthetic", and the collective kind's background):
// messages created by the injection process at a mean of traffic.rate flits per node per cycle,
// each to a destination of the pattern, of one packet of traffic.packet_flits data flits, of
// traffic.message_flits or, bimodal, of one of two lengths; a message longer than a packet goes
// as packets of 16 data flits and the rest, created together.

#include "models/core/rng.h"
#include "models/endpoint/traffic_source.h"
#include "workloads/params/workload_params.h"
#include "workloads/synthetic/destinations.h"
#include "workloads/synthetic/injection.h"

namespace angara {

class SyntheticTraffic : public TrafficSource {
 public:
  // `destinations` is the machine's, shared by every node's source.
  SyntheticTraffic(NodeId self, const Destinations& destinations, const TrafficParams& params,
                   std::uint64_t seed);

  std::optional<PacketRequest> next() override;

 private:
  NodeId m_self;
  const Destinations& m_destinations;
  int m_flits[2];           // the message lengths, data flits (the same twice if not bimodal)
  double m_first_share;     // of messages with the first
  PacketRequest m_message;  // the message being split into packets
  int m_rest = 0;           // its data flits not handed out yet
  bool m_sends;
  Injection m_injection;
  Rng m_rng;
};

}  // namespace angara
