#pragma once
// The numbers a collective operation works on, shared by the hardware experiment
// (CollectiveWorkload) and the software one (platform/experiments/software_experiment.h), so that
// both run on exactly the same inputs for the same config and their results can be compared through
// a digest. The reference reduction is written here on its own, not with the model's reduction
// code, so a wrong reduction in the model cannot agree with its own check.

#include <cstdint>
#include <span>
#include <vector>

#include "models/core/ids.h"
#include "models/core/params.h"
#include "models/core/rng.h"

namespace angara {

// Node `node`'s `count` input words for operation `k` on tree `tree` (two per payload flit of a
// packet), random from the run's seed. A reduce combines every processor's inputs; a broadcast
// carries its source's.
inline std::vector<std::int64_t> collective_inputs(std::uint64_t seed, std::size_t count, int k,
                                                   int tree, NodeId node) {
  Rng rng(seed, (static_cast<std::uint64_t>(k) << 24) + (static_cast<std::uint64_t>(tree) << 20) +
                    node + 1);
  std::vector<std::int64_t> words(count);
  for (auto& w : words) w = static_cast<std::int64_t>(rng.next());
  return words;
}

// a op b for the expected result.
inline std::int64_t reference_reduce(Reduction op, std::int64_t a, std::int64_t b) {
  if (op == Reduction::Min) return a < b ? a : b;
  if (op == Reduction::Max) return a < b ? b : a;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// FNV-1a 64 over result words, each as its 8 bytes least significant first (independent of the
// host's byte order): one number that says whether two runs delivered the same results.
class ResultDigest {
 public:
  void add(std::span<const std::int64_t> words) {
    for (const std::int64_t w : words) {
      auto u = static_cast<std::uint64_t>(w);
      for (int b = 0; b < 8; ++b, u >>= 8) {
        m_hash = (m_hash ^ (u & 0xff)) * 0x100000001b3ULL;
      }
    }
  }
  std::uint64_t value() const { return m_hash; }

 private:
  std::uint64_t m_hash = 0xcbf29ce484222325ULL;  // the FNV-1a 64 offset basis
};

}  // namespace angara
