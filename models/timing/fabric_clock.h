#pragma once
// The model's time base: router cycles, and their place on SystemC's time axis.

#include <systemc>

#include "models/core/ids.h"

namespace angara {

// Converts between router cycles and SystemC time. Cycles are the model's time; SystemC time is
// only the scheduler's clock.
class FabricClock {
 public:
  explicit FabricClock(double clock_mhz) : m_period(1000.0 / clock_mhz, sc_core::SC_NS) {}

  const sc_core::sc_time& period() const { return m_period; }
  Cycle now() const { return sc_core::sc_time_stamp().value() / m_period.value(); }
  // The cycle an annotated delay from now points at.
  Cycle after(const sc_core::sc_time& delay) const {
    return (sc_core::sc_time_stamp().value() + delay.value()) / m_period.value();
  }
  // The first cycle that starts at or after the delay from now (a landing time in whole cycles).
  Cycle at_or_after(const sc_core::sc_time& delay) const {
    return (sc_core::sc_time_stamp().value() + delay.value() + m_period.value() - 1) /
           m_period.value();
  }
  // Delay from now until the start of cycle `c` (c must not be in the past).
  sc_core::sc_time until(Cycle c) const {
    return sc_core::sc_time::from_value(c * m_period.value() - sc_core::sc_time_stamp().value());
  }

 private:
  sc_core::sc_time m_period;
};

}  // namespace angara
