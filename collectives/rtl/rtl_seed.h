#pragma once
// The seed an RTL block's flops start from. Verilator gives every flop and every x a random value
// at start (--x-initial unique, --x-assign unique), as silicon powers up, so that a block that
// reads what its reset did not set fails its checks, where Verilator's default zeros would hide
// it. Drawn per block and node from the run's seed: the same run starts from the same values.

#include <cstdint>

#include "models/core/rng.h"

namespace angara {

enum class RtlBlock : std::uint64_t { Reducer = 1, VcUp = 2 };

inline std::uint32_t flop_seed(std::uint64_t run_seed, std::uint64_t node, RtlBlock block) {
  const std::uint64_t z = mix64(mix64(run_seed) ^ (node << 2 | static_cast<std::uint64_t>(block)));
  return static_cast<std::uint32_t>(z >> 33) | 1U;  // Verilator reads a seed of 0 as "any"
}

}  // namespace angara
