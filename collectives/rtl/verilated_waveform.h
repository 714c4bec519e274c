#pragma once
// Verilator's own trace of a verilated block (RtlWaveform), for the blocks' bindings: a VCD of
// every signal inside the block on SystemC's time, from the start of simulation. A block
// verilated without --trace (VM_TRACE 0) has none.

#include <memory>
#include <string>
#include <vector>

#include <verilated.h>
#if VM_TRACE
#include <verilated_vcd_sc.h>
#endif

#include "collectives/rtl/rtl_recording.h"

namespace angara {

// Every model of `models` into one file. Must be called before simulation starts and after
// elaboration (start_of_simulation).
template <typename Model>
std::unique_ptr<RtlWaveform> trace_verilated([[maybe_unused]] const std::vector<Model*>& models,
                                             [[maybe_unused]] const std::string& file) {
#if VM_TRACE
  class Vcd final : public RtlWaveform {
   public:
    void flush() override { vcd.flush(); }
    VerilatedVcdSc vcd;
  };
  Verilated::traceEverOn(true);
  auto waveform = std::make_unique<Vcd>();
  for (Model* model : models) model->trace(&waveform->vcd, 99);
  waveform->vcd.open(file.c_str());
  return waveform;
#else
  return nullptr;
#endif
}

}  // namespace angara
