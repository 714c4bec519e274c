// A user's sc_main embedding angara-tlm: a 4x4x2 torus in the mode given (at, lt or
// lt_buffers), eight of its nodes reached through user ports, where the user's generators write
// messages and the user's receivers take them (traffic_bench.h). Exits 0 when every message
// arrived whole, from its sender, in order.

#include <cstring>
#include <iostream>
#include <systemc>

#include "traffic_bench.h"

int sc_main(int argc, char* argv[]) {
  const char* mode = argc > 1 ? argv[1] : "at";
  angara::Config config;
  config.topology.dims = {4, 4, 2};
  config.sim.mode = std::strcmp(mode, "at") == 0 ? angara::SimMode::At : angara::SimMode::Lt;
  config.sim.lt_buffers = std::strcmp(mode, "lt_buffers") == 0;
  const bench::Result r = bench::run(config, {0, 3, 7, 12, 17, 22, 26, 31}, 50, 30);
  std::cout << "embedded angara-tlm (" << mode << "): " << r.messages << " messages sent, "
            << r.received << " arrived, mean latency " << r.mean_latency << " cycles\n";
  for (const std::string& p : r.problems) std::cout << "problem: " << p << "\n";
  return r.problems.empty() && r.messages > 0 && r.received == r.messages ? 0 : 1;
}
