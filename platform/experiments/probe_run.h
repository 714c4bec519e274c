#pragma once
// Runs a given list of packets through the machine and reports each one's delivery: for
// zero-load latency checks and hand-made traffic. Like run_experiment, once per process.

#include <vector>

#include "models/endpoint/traffic_source.h"
#include "platform/config/config.h"

namespace angara {

// A packet to send from node `src`: its destination, data flits and creation cycle.
struct Probe {
  NodeId src = 0;
  PacketRequest packet;
};

struct ProbeDelivery {
  Probe probe;
  Cycle latency = 0;  // creation to tail delivered, cycles
  int hops = 0;       // router-to-router links crossed
};

// Deliveries in the order of `probes`. Throws ModelError if a probe is lost or deadlocks.
std::vector<ProbeDelivery> run_probes(const Config& config, const std::vector<Probe>& probes);

}  // namespace angara
