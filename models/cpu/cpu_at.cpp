#include "models/cpu/cpu_at.h"

#include <algorithm>

namespace angara {

CpuModule::CpuModule(const sc_core::sc_module_name& name, Cycle quantum_cycles,
                     double flops_per_cycle, const FabricClock& clock)
    : sc_core::sc_module(name),
      m_core(quantum_cycles, flops_per_cycle),
      m_clock(clock),
      m_alarm(*this, clock) {
  m_core.on_wake([this] { schedule(); });
  SC_HAS_PROCESS(CpuModule);
  SC_METHOD(evaluate);
  sensitive << m_alarm.event();
}

void CpuModule::load(Task program) {
  m_core.load(std::move(program));
  if (sc_core::sc_is_running()) schedule();
}

void CpuModule::evaluate() {
  m_core.run(m_clock.now());
  schedule();
}

// A signal notified in the kernel's past wakes the CPU now. The alarm keeps its earliest
// wake-up; a run before next_wakeup() does nothing, so an early wake-up is harmless.
void CpuModule::schedule() {
  const Cycle next = m_core.next_wakeup();
  if (next != kNever) m_alarm.at(next);
}

}  // namespace angara
