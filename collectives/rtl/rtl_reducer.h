#pragma once
// The transactor that puts the Reducer's RTL (reducer.sv, or ANGARA_RTL_REDUCER) in the PEGroup
// in AT. It keeps the C++ Reducer as the reference for values, feeds every contribution to the
// RTL beat by beat from the cycle it reaches the Reducer's input, and clocks the RTL while it has
// work (no clock otherwise). Checking, it requires each handshake and hand-off in exactly the
// cycle the model has it; driving, the RTL takes heads and hands results off when it will, and
// each result leaves the PEGroup in the cycle of its hand-off. Either way the ids, counts and data
// must be the model's, and a hand-off comes before the router can move the result, so nothing
// leaves unchecked. The first difference stops the run with a ModelError naming the node, the
// signal, the cycle and both values.
//
// RTL cycle c starts at the rising edge at (c - 1/2) periods; the transactor reads its outputs
// and drives its inputs for cycle c at (c - 1/4) periods, before the router acts in cycle c
// (GatedClock::Sample::BeforeRouter).

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include <systemc>

#include "collectives/rtl/gated_clock.h"
#include "collectives/rtl/reducer_pins.h"
#include "collectives/rtl/rtl_stats.h"
#include "collectives/subnet/reducer_block.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/timing/fabric_clock.h"

namespace angara {

class RtlReducer : public sc_core::sc_module, public ReducerBlock {
 public:
  // `where`: how messages name the node, e.g. "node (1,0,0)". `stats`: where to count what was
  // compared (shared by the run's transactors). `flop_seed`: the RTL's flops start from random
  // values drawn from it (rtl_seed.h). `drives`: the RTL's timing drives the PEGroup.
  // `recording`: where to record the RTL's waveform and ports (a traced node), or null.
  RtlReducer(const sc_core::sc_module_name& name, std::string where, const CollectiveParams& params,
             const FabricClock& clock, RtlReducerStats& stats, std::uint32_t flop_seed, bool drives,
             RtlRecording* recording = nullptr);
  ~RtlReducer() override;

  SC_HAS_PROCESS(RtlReducer);

  Reducer::Outcome add(Packet* packet, const TreeRow& row, Cycle at, Cycle start,
                       Cycle end) override;
  int busy(int tree) const override { return m_model.busy(tree) + m_held[tree]; }
  bool drives() const override { return m_drives; }
  void set_hand_off(HandOff hand_off) override { m_hand_off = std::move(hand_off); }

  // Driving, the RTL must take a beat or hand a result off at least this often while it has work.
  static constexpr Cycle kMaxStall = 256;

 private:
  struct Contribution {
    Cycle at = 0, start = 0, end = 0;
    std::uint8_t tree = 0, reduce = 0, op = 0, flits = 0, expected = 0;
    std::array<Flit, kMaxDataFlits> data{};
  };
  struct Handoff {    // the model's result; the PEGroup keeps it until the hand-off
    Cycle cycle = 0;  // checking: the model's
    Packet* result = nullptr;
    int count = 0;
  };

  void start_of_simulation() override;
  void tick();
  // The replay file's line of cycle c: the outputs after its edge, the inputs that edge took.
  void record(Cycle c);
  void check_outputs(Cycle c);
  void check_handoff(Cycle c, const Handoff& h);
  void check_result_flit(Cycle c, std::uint32_t f, const Flit& rtl);
  [[noreturn]] void report_mismatch(Cycle c) const;
  void drive_inputs(Cycle c);
  void check_progress(Cycle c) const;
  bool idle(Cycle c) const;
  [[noreturn]] void mismatch(Cycle c, const std::string& signal, const std::string& model,
                             const std::string& rtl) const;

  std::string m_where;
  bool m_drives;
  HandOff m_hand_off;
  const FabricClock& m_clock;
  RtlReducerStats& m_stats;
  ReducerPins m_pins;
  std::unique_ptr<RtlModel> m_rtl;
  Reducer m_model;
  RingQueue<Contribution> m_inputs;  // granted, not yet wholly taken by the RTL
  int m_beat = 0;                    // of m_inputs.front(): 0 the head, then data flits
  Contribution m_taken;              // the one whose head the RTL took last
  RingQueue<Handoff> m_handoffs;     // the model's, in order
  std::uint32_t m_result_flits = 0;  // bit f: the RTL streamed result flit f
  std::array<std::uint32_t, kMaxTrees> m_issued{};
  std::array<int, kMaxTrees> m_held{};  // driving: the model's results not yet handed off
  Cycle m_progress_at = 0;              // driving: the last beat taken or hand-off
  RtlRecording* m_recording;
  std::unique_ptr<RtlWaveform> m_waveform;  // the recording's VCD
  std::uint32_t m_head_cycles = 0, m_flit_cycles = 0;
  Cycle m_result_cycles = 0;  // from `end` to the hand-off
  Cycle m_busy_until = 0;     // the end of the last contribution granted
  GatedClock m_gate;          // the RTL's clock, run while it has work
};

}  // namespace angara
