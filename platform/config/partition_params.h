#pragma once
// One partition of a re-cabled machine ([[partition]]): a box of the torus whose rings are
// cabled to wrap inside it, so that it is a torus of its own (the SKIF machine is cut this way
// into independent 3D tori, one job each), and the workload it runs.

#include <cstdint>
#include <string>
#include <vector>

#include "models/core/params.h"
#include "workloads/params/compute_model.h"
#include "workloads/params/workload_params.h"

namespace angara {

struct PartitionParams {
  std::vector<int> origin;  // the box's lowest corner, coordinates of the machine's torus
  std::vector<int> dims;    // the box's sizes: the partition's own torus, each ring >= 2
  std::uint64_t seed = 1;   // its run's sim.seed (the loader's default: sim.seed + its index)
  // What it runs: the machine's [workload], [traffic], [app] and [compute] with the partition's
  // own keys over them.
  WorkloadParams workload;
  TrafficParams traffic;
  AppParams app;
  ComputeParams compute;

  int node_count() const;
  // "origin [0, 0, 0], dims [4, 4, 2]", for messages.
  std::string box() const;
  // Whether this box and `other` share a node.
  bool overlaps(const PartitionParams& other) const;
  // Whether the machine's node at `coords` lies in the box.
  bool contains(const std::vector<int>& coords) const;
  // Throws a ConfigError under "partition[index].origin" or ".dims" unless the box has one
  // coordinate per dimension of `machine` and lies inside it (boxes do not wrap round the
  // machine's rings: a partition is cabled from whole cable segments).
  void check_box(const TopologyParams& machine, std::size_t index) const;
};

}  // namespace angara
