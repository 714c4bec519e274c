#pragma once
// VCUp's ports as SystemC signals (docs/RTL.md), the types Verilator gives them: bool for one
// bit, uint32_t up to 32, sc_bv beyond. The transactor drives and reads these; whichever
// SystemVerilog was built in (ANGARA_RTL_VCUP) is bound to them by make_vcup_rtl.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "collectives/rtl/gated_clock.h"
#include "collectives/rtl/rtl_recording.h"

namespace angara {

struct VcUpPins : ClockPins {  // clk and rst first
  template <typename T>
  using Signal = sc_core::sc_signal<T>;

  Signal<std::uint32_t> cfg_table_cycles{"cfg_table_cycles"},
      cfg_analysis_cycles{"cfg_analysis_cycles"}, cfg_buffer_flits{"cfg_buffer_flits"},
      cfg_node{"cfg_node"};
  Signal<sc_dt::sc_bv<224>> cfg_table{"cfg_table"};

  Signal<bool> in_head{"in_head"}, in_tail{"in_tail"};
  Signal<std::uint32_t> in_kind{"in_kind"}, in_tree{"in_tree"}, in_flits{"in_flits"},
      in_src{"in_src"}, in_id{"in_id"};

  Signal<bool> req_valid{"req_valid"};
  Signal<std::uint32_t> req_dirs{"req_dirs"};
  Signal<bool> req_pe{"req_pe"}, req_pegroup{"req_pegroup"};
  Signal<bool> grant_valid{"grant_valid"};
  Signal<std::uint32_t> grant_target{"grant_target"}, grant_cycles{"grant_cycles"};

  Signal<bool> free_valid{"free_valid"};
  Signal<std::uint32_t> free_flits{"free_flits"};

  Signal<std::uint32_t> occupancy{"occupancy"}, head_stage{"head_stage"}, head_id{"head_id"},
      last_stage{"last_stage"}, last_id{"last_id"};
  Signal<bool> err_overflow{"err_overflow"}, err_beat{"err_beat"}, err_packet{"err_packet"},
      err_grant{"err_grant"};
};

// The verilated VCUp, its ports bound to `pins`; defined next to the verilated model.
std::unique_ptr<sc_core::sc_module> make_vcup_rtl(const char* name, VcUpPins& pins,
                                                  std::uint32_t flop_seed);
// Verilator's trace of the VCUps `rtls` (made by make_vcup_rtl) into one `file` from now on: call
// it at the start of simulation. Null when VCUp was verilated without tracing.
std::unique_ptr<RtlWaveform> trace_vcup_rtl(const std::vector<sc_core::sc_module*>& rtls,
                                            const std::string& file);

}  // namespace angara
