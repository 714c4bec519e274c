#pragma once
// The Reducer's ports as SystemC signals (docs/RTL.md), the types Verilator gives them: bool for
// one bit, uint32_t up to 32, sc_bv beyond. The transactor drives and reads these; whichever
// SystemVerilog was built in (ANGARA_RTL_REDUCER) is bound to them by make_reducer_rtl.

#include <cstdint>
#include <memory>

#include <systemc>

#include "collectives/rtl/gated_clock.h"
#include "collectives/rtl/rtl_recording.h"

namespace angara {

struct ReducerPins : ClockPins {  // clk and rst first
  template <typename T>
  using Signal = sc_core::sc_signal<T>;

  Signal<std::uint32_t> cfg_head_cycles{"cfg_head_cycles"}, cfg_flit_cycles{"cfg_flit_cycles"};

  Signal<bool> in_valid{"in_valid"}, in_ready{"in_ready"};
  Signal<std::uint32_t> in_tree{"in_tree"}, in_reduce{"in_reduce"}, in_op{"in_op"},
      in_flits{"in_flits"}, in_expected{"in_expected"};
  Signal<sc_dt::sc_bv<128>> in_data{"in_data"};

  Signal<bool> res_flit_valid{"res_flit_valid"};
  Signal<std::uint32_t> res_flit_index{"res_flit_index"};
  Signal<sc_dt::sc_bv<128>> res_flit{"res_flit"};
  Signal<bool> res_valid{"res_valid"};
  Signal<std::uint32_t> res_tree{"res_tree"}, res_reduce{"res_reduce"}, res_op{"res_op"},
      res_flits{"res_flits"}, res_count{"res_count"};
  Signal<sc_dt::sc_bv<512>> issued{"issued"};
  Signal<bool> err_mismatch{"err_mismatch"};
};

// The verilated Reducer, its ports bound to `pins`, its flops starting from random values drawn
// from `flop_seed` (rtl_seed.h); defined next to the verilated model.
std::unique_ptr<sc_core::sc_module> make_reducer_rtl(const char* name, ReducerPins& pins,
                                                     std::uint32_t flop_seed);
// Verilator's trace of `rtl` (made by make_reducer_rtl) into `file` from now on: call it at the
// start of simulation. Null when the Reducer was verilated without tracing.
std::unique_ptr<RtlWaveform> trace_reducer_rtl(sc_core::sc_module& rtl, const std::string& file);

}  // namespace angara
