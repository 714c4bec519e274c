#pragma once
// The clock of a verilated block, run only while its transactor has work for it. The
// transactor's SC_METHOD asks it what each activation is for; the clock drives the block's clk
// and rst pins, evaluates the block at each of their changes, wakes the process at one sample
// point per cycle, stops when the transactor says the block is idle and starts again at its
// word. The edges an idle block misses would change nothing, so thousands of RTL blocks beside a
// machine cost only the cycles they work.
//
// RTL cycle c runs from the rising edge at (c - 1/2) periods to the one at (c + 1/2). At the
// sample point of cycle c the transactor reads the block's outputs for c and drives its inputs
// for c, which the edge at (c + 1/2) takes: at (c - 1/4) periods, before the router acts in
// cycle c (Sample::BeforeRouter: the Reducer's hand-off is known before the router can move the
// result), or at (c + 1/4), after it (Sample::AfterRouter: VCUp sees what the router did in c).
// Sample::Both has the two: the outputs for c read before the router acts (a driving VCUp's
// requests), the inputs for c driven after it (the grants the router made).
//
// Nothing but the transactor touches the block between its sample points, so a rising edge is
// evaluated at the next activation, one per cycle, with the edge's own time for the waveform;
// `edge_apart` gives the edge an activation of its own at its time, for a waveform file that
// several blocks write (its changes must come in time order).

#include <cstdint>

#include <systemc>

#include "collectives/rtl/rtl_pins.h"
#include "models/core/ids.h"
#include "models/timing/fabric_clock.h"

namespace angara {

class GatedClock {
 public:
  enum class Sample { BeforeRouter, AfterRouter, Both };

  // `pins`: the block's clk and rst, which the clock drives; `model`: the block, evaluated at
  // each change of them and of the inputs the transactor drives.
  GatedClock(const FabricClock& clock, Sample sample, ClockPins& pins, RtlModel& model,
             bool edge_apart = false);

  // The body of the transactor's SC_METHOD, whose next trigger it sets: at time 0
  // `configure()` drives the block's static inputs; at the sample point of each cycle c
  // `sample(c)` checks the block's outputs and drives its inputs, and returns whether the block
  // has work on (busy clocks on to the next edge; idle stops the clock until wake()). With
  // Sample::Both, `early(c)` reads the block's outputs for c before the router acts.
  template <typename Configure, typename SampleFn, typename EarlyFn = void (*)(Cycle)>
  void tick(
      Configure configure, SampleFn sample, EarlyFn early = [](Cycle) {}) {
    switch (begin()) {
      case Phase::Reset:
        configure();
        reset_done();
        return;
      case Phase::Early:
        early(m_cycle);
        early_done();
        return;
      case Phase::Sample:
        sample_done(sample(m_cycle));
        return;
      default:
        return;
    }
  }
  // The transactor has work: a stopped clock resumes at the first sample point from now, through
  // its rising edge if that is still to come. A running clock runs on.
  void wake();

 private:
  enum class Phase { Reset, Edge, Early, Sample, Stopped };  // what an activation is for

  // This activation's phase, after the rising edge due before it; an Edge or Stopped activation
  // is done here.
  Phase begin();
  void reset_done();
  void early_done();
  void sample_done(bool busy);
  void rising_edge();
  // The first point of cycle m_cycle, whose rising edge is due (its edge if apart), as the next
  // phase; its time. to_cycle() is the process's next trigger at it.
  std::uint64_t first_point();
  void to_cycle();
  void eval() { m_model.eval(sc_core::sc_time_stamp().value()); }
  std::uint64_t edge_at(Cycle c) const { return c * m_period - m_period / 2; }  // time units
  std::uint64_t sample_at(Cycle c) const { return edge_at(c) + m_edge_to_sample; }

  ClockPins& m_pins;
  RtlModel& m_model;
  std::uint64_t m_period;          // SystemC time units
  std::uint64_t m_edge_to_sample;  // from a rising edge to its cycle's sample point
  bool m_early;                    // Sample::Both: a point before the router first
  bool m_edge_apart;
  // The delays of a running clock: rising edge to the first point (early or sample), early to
  // sample point, sample point to next edge.
  sc_core::sc_time m_to_first, m_to_sample, m_to_edge;
  Phase m_phase = Phase::Reset;  // what's next
  Cycle m_cycle = 0;
  bool m_edge_due = false;  // the rising edge of m_cycle, not evaluated yet
  sc_core::sc_event m_wake;
};

}  // namespace angara
