// A user's sc_main against the installed package: the default machine (a 4x4x4 torus under
// uniform traffic) for a few hundred cycles; exits 0 when packets were delivered.

#include <iostream>
#include <systemc>

#include "platform/config/config.h"
#include "platform/experiments/experiment.h"
#include "platform/version/version.h"

int sc_main(int, char*[]) {
  angara::Config config;
  config.sim.warmup_cycles = 100;
  config.sim.measure_cycles = 300;
  config.sim.progress = false;
  const angara::ExperimentResult result = angara::run_experiment(config);
  std::cout << "angara-tlm " << angara::version() << ": " << result.packets_delivered
            << " packets delivered in " << result.sim_cycles << " cycles\n";
  return result.packets_delivered > 0 ? 0 : 1;
}
