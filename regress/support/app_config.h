#pragma once
// The config the application tests start from: `kind` (spmv or heat) by `algorithm` on a torus,
// two iterations.

#include <utility>
#include <vector>

#include "platform/config/config.h"

namespace angara::test {

inline Config app_config(std::vector<int> dims, WorkloadKind kind, SoftwareAlgorithm algorithm) {
  Config c;
  c.topology.dims = std::move(dims);
  c.workload.kind = kind;
  c.workload.algorithm = algorithm;
  c.workload.repetitions = 2;
  return c;
}

}  // namespace angara::test
