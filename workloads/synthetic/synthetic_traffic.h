#pragma once
// A node's synthetic traffic (workload.kind = "synthetic", and the collective kind's background):
// packets created by the injection process at a mean of traffic.rate flits per node per cycle,
// each to a destination of the pattern, of traffic.packet_flits data flits or, bimodal, of one of
// two lengths.

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
  int m_flits[2];        // the packet lengths, data flits (the same twice if not bimodal)
  double m_first_share;  // of packets with the first
  bool m_sends;
  Injection m_injection;
  Rng m_rng;
};

}  // namespace angara
