#pragma once
// Uniform random traffic with Bernoulli injection: in every cycle a node creates a packet with
// probability rate / wire_flits (so the offered load is `rate` flits per node per cycle), sent to
// a destination drawn uniformly from the other nodes. Packet size is fixed.

#include "models/core/rng.h"
#include "models/endpoint/traffic_source.h"
#include "workloads/params/workload_params.h"

namespace angara {

class UniformTraffic : public TrafficSource {
 public:
  UniformTraffic(NodeId self, int node_count, const TrafficParams& params, std::uint64_t seed);

  std::optional<PacketRequest> next() override;

 private:
  NodeId m_self;
  int m_nodes;
  int m_data_flits;
  double m_probability;  // of creating a packet in a given cycle
  Rng m_rng;
  Cycle m_cycle = 0;  // the first cycle not yet drawn
};

}  // namespace angara
