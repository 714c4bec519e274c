#pragma once
// The config the software-collective tests start from: `op` by `algorithm` (messages or the
// subnet from programs) on a torus, no progress lines.

#include <utility>
#include <vector>

#include "platform/config/config.h"

namespace angara::test {

inline Config software_config(std::vector<int> dims, SimMode mode, CollectiveOp op,
                              SoftwareAlgorithm algorithm, int repetitions) {
  Config c;
  c.topology.dims = std::move(dims);
  c.sim.mode = mode;
  c.sim.progress = false;
  c.workload.kind = WorkloadKind::Software;
  c.workload.op = op;
  c.workload.algorithm = algorithm;
  c.workload.repetitions = repetitions;
  return c;
}

}  // namespace angara::test
