#pragma once
// CpuModule: the SystemC shell of a CpuCore. Woken at the core's next_wakeup() by the machine's
// WakeCalendar (LT) or by one SC_METHOD on one event (AT); no SC_THREAD per CPU, which would
// switch tens of times slower at 32768 CPUs (cpu_bench). The method runs once at time 0 to start a
// program loaded during elaboration.

#include <systemc>

#include "models/cpu/cpu_core.h"
#include "models/timing/fabric_clock.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class CpuModule : public sc_core::sc_module, private WakeCalendar::Sleeper {
 public:
  // `clock` must outlive the module.
  CpuModule(const sc_core::sc_module_name& name, Cycle quantum_cycles, double flops_per_cycle,
            const FabricClock& clock);

  CpuCore& core() { return m_core; }
  const FabricClock& clock() const { return m_clock; }
  const CpuCore& core() const { return m_core; }
  // Gives the CPU its program; it starts at time 0, or at once if the simulation is running.
  void load(Task program);
  // From now on woken by `calendar` (LT) instead of its own event.
  void wake_on(WakeCalendar& calendar) { m_alarm.use(calendar); }

 private:
  void woken() override { evaluate(); }
  void evaluate();
  void schedule();

  CpuCore m_core;
  const FabricClock& m_clock;
  Alarm m_alarm;
};

}  // namespace angara
