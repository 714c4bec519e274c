#include "models/core/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace angara {

const std::vector<Cycle>& LatencyStats::sorted() const {
  if (m_sorted.size() != m_samples.size()) {
    m_sorted = m_samples;
    std::sort(m_sorted.begin(), m_sorted.end());
  }
  return m_sorted;
}

double LatencyStats::mean() const {
  if (m_samples.empty()) return 0.0;
  const double sum = std::accumulate(m_samples.begin(), m_samples.end(), 0.0);
  return sum / static_cast<double>(m_samples.size());
}

Cycle LatencyStats::min() const {
  return m_samples.empty() ? 0 : sorted().front();
}
Cycle LatencyStats::max() const {
  return m_samples.empty() ? 0 : sorted().back();
}

Cycle LatencyStats::percentile(double p) const {
  if (m_samples.empty()) return 0;
  const auto& s = sorted();
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(s.size())));
  return s[std::clamp<std::size_t>(rank, 1, s.size()) - 1];
}

std::vector<LatencyStats::Bin> LatencyStats::histogram(int bins) const {
  std::vector<Bin> out;
  if (m_samples.empty() || bins < 1) return out;
  const Cycle lo = min();
  const Cycle width = std::max<Cycle>(1, (max() - lo) / static_cast<Cycle>(bins) + 1);
  for (int i = 0; i < bins; ++i) out.push_back({lo + i * width, lo + (i + 1) * width, 0});
  for (Cycle v : m_samples) ++out[(v - lo) / width].count;
  while (!out.empty() && out.back().count == 0) out.pop_back();
  return out;
}

}  // namespace angara
