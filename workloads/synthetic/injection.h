#pragma once
// When a node creates its synthetic messages (traffic.injection), at a mean of `per_cycle`
// messages per cycle:
//   bernoulli  a coin per cycle: at most one message a cycle
//   poisson    exponential gaps between messages (several may fall in one cycle)
//   on_off     bursts and pauses of geometric lengths (means burst_cycles and idle_cycles), a
//              coin per cycle during a burst, weighted so that the mean stays per_cycle
// One per node; the randomness is the node's generator.

#include "models/core/ids.h"
#include "models/core/rng.h"
#include "workloads/params/workload_params.h"

namespace angara {

class Injection {
 public:
  Injection(const TrafficParams& params, double per_cycle);

  // The cycle of the next message; cycles never decrease.
  Cycle next(Rng& rng);

 private:
  InjectionProcess m_process;
  double m_p;              // bernoulli, on_off: a message's chance per cycle (on_off: while on)
  Geometric m_gap;         // the cycles without one before the next, for m_p
  double m_per_cycle;      // poisson
  double m_burst, m_idle;  // on_off: mean lengths
  Cycle m_cycle = 0;       // the first cycle not drawn yet
  Cycle m_burst_end = 0;   // on_off: the current burst is [m_burst_start, m_burst_end)
  Cycle m_burst_start = 0;
  double m_time = 0;  // poisson: the last arrival, in cycles
};

}  // namespace angara
