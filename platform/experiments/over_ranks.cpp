#include "platform/experiments/over_ranks.h"

namespace angara {

LatencyStats gather_samples(const LatencyStats& mine, const Ranks& ranks) {
  if (!ranks.parallel()) return mine;
  Bytes bytes;
  for (Cycle sample : mine.samples()) put(bytes, sample);
  const std::vector<Bytes> all = ranks.gather(bytes);
  if (!ranks.root()) return mine;
  LatencyStats merged;
  for (const Bytes& part : all) {
    for (std::size_t at = 0; at < part.size();) merged.add(take<Cycle>(part, at));
  }
  return merged;
}

}  // namespace angara
