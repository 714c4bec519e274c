#include "platform/config/partition_params.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/core/config_error.h"

namespace angara {

int PartitionParams::node_count() const {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

std::string PartitionParams::box() const {
  return fmt::format("origin [{}], dims [{}]", fmt::join(origin, ", "), fmt::join(dims, ", "));
}

bool PartitionParams::overlaps(const PartitionParams& other) const {
  for (std::size_t d = 0; d < dims.size(); ++d) {
    // Two intervals [a, a + n) and [b, b + m) are apart when one ends before the other begins.
    if (origin[d] + dims[d] <= other.origin[d] || other.origin[d] + other.dims[d] <= origin[d]) {
      return false;
    }
  }
  return true;
}

bool PartitionParams::contains(const std::vector<int>& coords) const {
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (coords[d] < origin[d] || coords[d] >= origin[d] + dims[d]) return false;
  }
  return true;
}

void PartitionParams::check_box(const TopologyParams& machine, std::size_t index) const {
  const auto key = [index](const char* leaf) {
    return fmt::format("partition[{}].{}", index, leaf);
  };
  const std::size_t n = machine.dims.size();
  if (dims.size() != n) {
    throw ConfigError(key("dims"), fmt::format("[{}]", fmt::join(dims, ", ")),
                      fmt::format("one size per dimension of the machine's torus (topology.dims "
                                  "has {})",
                                  n));
  }
  if (origin.size() != n) {
    throw ConfigError(key("origin"), fmt::format("[{}]", fmt::join(origin, ", ")),
                      fmt::format("one coordinate per dimension of the machine's torus "
                                  "(topology.dims has {})",
                                  n));
  }
  for (std::size_t d = 0; d < n; ++d) {
    if (dims[d] < 2) {
      throw ConfigError(key("dims"), fmt::format("[{}]", fmt::join(dims, ", ")),
                        "each ring of a partition's torus has at least 2 nodes");
    }
    if (origin[d] < 0) {
      throw ConfigError(key("origin"), fmt::format("[{}]", fmt::join(origin, ", ")),
                        "coordinates of the machine's torus are >= 0");
    }
    // In 64 bits: a huge origin plus a huge size must not wrap round into the machine.
    if (static_cast<long long>(origin[d]) + dims[d] > machine.dims[d]) {
      throw ConfigError(
          key("dims"), fmt::format("[{}]", fmt::join(dims, ", ")),
          fmt::format("the box ({}) must lie inside the machine's torus (topology.dims "
                      "= [{}]): origin + dims <= topology.dims in every dimension; "
                      "a partition does not wrap round the machine's rings",
                      box(), fmt::join(machine.dims, ", ")));
    }
  }
}

}  // namespace angara
