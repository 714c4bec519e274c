#pragma once
// The Reducer's ports (docs/RTL.md) as values. The transactor drives and reads these; whichever
// SystemVerilog was built in (ANGARA_RTL_REDUCER) is evaluated behind them by the model
// make_reducer_rtl makes.

#include <cstdint>
#include <memory>
#include <string>

#include "collectives/rtl/rtl_pins.h"
#include "collectives/rtl/rtl_recording.h"

namespace angara {

struct ReducerPins : ClockPins {  // clk and rst first
  std::uint32_t cfg_head_cycles = 0, cfg_flit_cycles = 0;

  bool in_valid = false, in_ready = false;
  std::uint32_t in_tree = 0, in_reduce = 0, in_op = 0, in_flits = 0, in_expected = 0;
  Wide<128> in_data{};

  bool res_flit_valid = false;
  std::uint32_t res_flit_index = 0;
  Wide<128> res_flit{};
  bool res_valid = false;
  std::uint32_t res_tree = 0, res_reduce = 0, res_op = 0, res_flits = 0, res_count = 0;
  Wide<512> issued{};
  bool err_mismatch = false;
};

// The verilated Reducer behind `pins`, named `name` in its waveform (the transactor's
// hierarchical name), its flops starting from random values drawn from `flop_seed` (rtl_seed.h);
// defined next to the verilated model.
std::unique_ptr<RtlModel> make_reducer_rtl(const std::string& name, ReducerPins& pins,
                                           std::uint32_t flop_seed);
// Verilator's trace of `rtl` (made by make_reducer_rtl) into `file` from now on: call it at the
// start of simulation. Null when the Reducer was verilated without tracing.
std::unique_ptr<RtlWaveform> trace_reducer_rtl(RtlModel& rtl, const std::string& file);

}  // namespace angara
