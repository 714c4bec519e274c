#pragma once
// Runs a given list of packets through the machine and reports each one's delivery: for
// zero-load latency checks and hand-made traffic. Like run_experiment, once per process.

#include <vector>

#include "platform/config/config.h"

namespace angara {

struct Probe {
  NodeId src = 0;
  NodeId dst = 0;
  int data_flits = 0;
  Cycle created = 0;
};

struct ProbeDelivery {
  Probe probe;
  Cycle latency = 0;  // creation to tail delivered, cycles
  int hops = 0;       // router-to-router links crossed
};

// Deliveries in the order of `probes`. Throws ModelError if a probe is lost or deadlocks.
std::vector<ProbeDelivery> run_probes(const Config& config, const std::vector<Probe>& probes);

}  // namespace angara
