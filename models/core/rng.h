#pragma once
// A small, fully specified random generator (xoshiro256**, seeded by SplitMix64), so a config
// and seed give the same packets on every compiler and library.

#include <array>
#include <cmath>
#include <cstdint>

namespace angara {

// SplitMix64's finalizer: a well-mixed 64-bit hash of `z`, for draws that must not depend on
// the order in which they are made.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  // `stream` separates independent generators under one seed (e.g. one per node).
  Rng(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (auto& s : m_s) s = splitmix(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }
  // Uniform in [0, 1).
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n), n > 0, without modulo bias.
  std::uint64_t uniform(std::uint64_t n) {
    const std::uint64_t limit = -n % n;  // 2^64 mod n: reject the low remainder
    for (;;) {
      const std::uint64_t x = next();
      if (x >= limit) return x % n;
    }
  }
  // Failures before the first success of Bernoulli(p) trials, 0 < p <= 1.
  std::uint64_t geometric(double p);

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) { return mix64(x += 0x9e3779b97f4a7c15ULL); }
  std::array<std::uint64_t, 4> m_s{};
};

// Rng::geometric(p) for a p drawn from many times (a node's gaps between messages): its
// logarithm worked out once.
class Geometric {
 public:
  explicit Geometric(double p) : m_sure(p >= 1.0), m_log_q(m_sure ? 0.0 : std::log1p(-p)) {}
  std::uint64_t operator()(Rng& rng) const {
    if (m_sure) return 0;
    return static_cast<std::uint64_t>(std::floor(std::log1p(-rng.uniform01()) / m_log_q));
  }

 private:
  bool m_sure;
  double m_log_q;
};

inline std::uint64_t Rng::geometric(double p) {
  return Geometric(p)(*this);
}

}  // namespace angara
