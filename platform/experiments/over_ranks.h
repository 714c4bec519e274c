#pragma once
// A run split over MPI ranks counts each figure in parts, one per rank: these put the parts
// together. Only whole numbers are summed, so a figure is exactly the one-process run's.

#include <array>
#include <cstdint>

#include "models/core/latency_stats.h"
#include "platform/parallel/ranks.h"

namespace angara {

// Rank 0: every rank's samples; the other ranks: their own.
LatencyStats gather_samples(const LatencyStats& mine, const Ranks& ranks);

// The sums over all ranks of whole-number fields `fields` of `mine`.
template <typename T, std::size_t N>
T sum_fields(T mine, const Ranks& ranks, const std::array<std::uint64_t T::*, N>& fields) {
  std::array<std::uint64_t, N> values;
  for (std::size_t i = 0; i < N; ++i) values[i] = mine.*fields[i];
  ranks.sum(values);
  for (std::size_t i = 0; i < N; ++i) mine.*fields[i] = values[i];
  return mine;
}

}  // namespace angara
