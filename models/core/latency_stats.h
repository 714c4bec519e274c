#pragma once
// Latency samples of one measurement: mean, percentiles and a fixed-width histogram.

#include <cstdint>
#include <vector>

#include "models/core/ids.h"

namespace angara {

class LatencyStats {
 public:
  struct Bin {
    Cycle lo = 0;  // inclusive
    Cycle hi = 0;  // exclusive
    std::uint64_t count = 0;
  };

  void add(Cycle latency) { m_samples.push_back(latency); }
  // Every figure below depends on the samples alone, not on their order, so samples taken in
  // parts (on several ranks) and put together give the figures of one run.
  const std::vector<Cycle>& samples() const { return m_samples; }

  std::uint64_t count() const { return m_samples.size(); }
  double mean() const;
  Cycle min() const;
  Cycle max() const;
  // The smallest sample with at least `p` (0..1) of all samples at or below it.
  Cycle percentile(double p) const;
  // `bins` equal-width bins from min to max; empty when there are no samples.
  std::vector<Bin> histogram(int bins) const;

 private:
  const std::vector<Cycle>& sorted() const;

  std::vector<Cycle> m_samples;
  mutable std::vector<Cycle> m_sorted;
};

}  // namespace angara
