#include "workloads/synthetic/injection.h"

#include <algorithm>
#include <cmath>

namespace angara {

Injection::Injection(const TrafficParams& params, double per_cycle)
    : m_process(params.injection),
      m_p(params.injection == InjectionProcess::OnOff
              ? per_cycle * (params.burst_cycles + params.idle_cycles) / params.burst_cycles
              : per_cycle),
      m_gap(m_p),
      m_per_cycle(per_cycle),
      m_burst(params.burst_cycles),
      m_idle(params.idle_cycles) {}

Cycle Injection::next(Rng& rng) {
  switch (m_process) {
    case InjectionProcess::Bernoulli: {
      const Cycle at = m_cycle + m_gap(rng);
      m_cycle = at + 1;
      return at;
    }
    case InjectionProcess::Poisson:
      m_time -= std::log1p(-rng.uniform01()) / m_per_cycle;
      return static_cast<Cycle>(m_time);
    case InjectionProcess::OnOff:
      break;
  }
  for (;;) {
    if (m_cycle >= m_burst_end) {  // a pause (0 or more cycles), then a burst (1 or more)
      m_burst_start = m_burst_end + rng.geometric(1.0 / (m_idle + 1.0));
      m_burst_end = m_burst_start + 1 + rng.geometric(1.0 / m_burst);
    }
    const Cycle at = std::max(m_cycle, m_burst_start) + m_gap(rng);
    m_cycle = at + 1;
    if (at < m_burst_end) return at;
    m_cycle = m_burst_end;
  }
}

}  // namespace angara
