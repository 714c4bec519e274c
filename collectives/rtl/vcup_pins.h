#pragma once
// VCUp's ports (docs/RTL.md) as values. The transactor drives and reads these; whichever
// SystemVerilog was built in (ANGARA_RTL_VCUP) is evaluated behind them by the model
// make_vcup_rtl makes.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collectives/rtl/rtl_pins.h"
#include "collectives/rtl/rtl_recording.h"

namespace angara {

struct VcUpPins : ClockPins {  // clk and rst first
  std::uint32_t cfg_table_cycles = 0, cfg_analysis_cycles = 0, cfg_buffer_flits = 0, cfg_node = 0;
  Wide<224> cfg_table{};

  bool in_head = false, in_tail = false;
  std::uint32_t in_kind = 0, in_tree = 0, in_flits = 0, in_src = 0, in_id = 0;

  bool req_valid = false;
  std::uint32_t req_dirs = 0;
  bool req_pe = false, req_pegroup = false;
  bool grant_valid = false;
  std::uint32_t grant_target = 0, grant_cycles = 0;

  bool free_valid = false;
  std::uint32_t free_flits = 0;

  std::uint32_t occupancy = 0, head_stage = 0, head_id = 0, last_stage = 0, last_id = 0;
  bool err_overflow = false, err_beat = false, err_packet = false, err_grant = false;
};

// The verilated VCUp behind `pins`, named `name` in its waveform (its lane's hierarchical name);
// defined next to the verilated model.
std::unique_ptr<RtlModel> make_vcup_rtl(const std::string& name, VcUpPins& pins,
                                        std::uint32_t flop_seed);
// Verilator's trace of the VCUps `rtls` (made by make_vcup_rtl) into one `file` from now on: call
// it at the start of simulation. Null when VCUp was verilated without tracing.
std::unique_ptr<RtlWaveform> trace_vcup_rtl(const std::vector<RtlModel*>& rtls,
                                            const std::string& file);

}  // namespace angara
