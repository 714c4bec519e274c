#pragma once
// CpuModule: the SystemC shell of a CpuCore. One SC_METHOD on one event, woken at the core's
// next_wakeup() (no SC_THREAD per CPU, DESIGN.md principle 5). It runs once at time 0 to start
// a program loaded during elaboration.

#include <systemc>

#include "models/cpu/cpu_core.h"
#include "models/router/fabric_protocol.h"

namespace angara {

class CpuModule : public sc_core::sc_module {
 public:
  // `clock` must outlive the module.
  CpuModule(const sc_core::sc_module_name& name, Cycle quantum_cycles, double flops_per_cycle,
            const FabricClock& clock);

  CpuCore& core() { return m_core; }
  const FabricClock& clock() const { return m_clock; }
  const CpuCore& core() const { return m_core; }
  // Gives the CPU its program; it starts at time 0, or at once if the simulation is running.
  void load(Task program);

 private:
  void evaluate();
  void schedule();

  CpuCore m_core;
  const FabricClock& m_clock;
  sc_core::sc_event m_wake;
};

}  // namespace angara
