#pragma once
// The clock of a verilated block, run only while its transactor has work for it. The
// transactor's SC_METHOD asks step() what each activation is for; the clock drives the block's
// clk and rst pins, wakes the process at each rising edge and at one sample point per cycle,
// stops when the transactor says the block is idle and starts again at its word. The edges an
// idle block misses would change nothing, so thousands of RTL blocks beside a machine cost only
// the cycles they work.
//
// RTL cycle c runs from the rising edge at (c - 1/2) periods to the one at (c + 1/2). At the
// sample point of cycle c the transactor reads the block's outputs for c and drives its inputs
// for c, which the edge at (c + 1/2) takes: at (c - 1/4) periods, before the router acts in
// cycle c (Sample::BeforeRouter: the Reducer's hand-off is known before the router can move the
// result), or at (c + 1/4), after it (Sample::AfterRouter: VCUp sees what the router did in c).
// Sample::Both has the two: the outputs for c read before the router acts (a driving VCUp's
// requests), the inputs for c driven after it (the grants the router made).

#include <cstdint>

#include <systemc>

#include "models/core/ids.h"
#include "models/timing/fabric_clock.h"

namespace angara {

// The pins a GatedClock drives, first in every clocked block's pins.
struct ClockPins {
  sc_core::sc_signal<bool> clk{"clk"}, rst{"rst"};
};

class GatedClock {
 public:
  enum class Sample { BeforeRouter, AfterRouter, Both };
  // What an activation of the transactor's process is for.
  enum class Step {
    Reset,   // time 0, rst high: drive the block's static inputs
    Early,   // Sample::Both: a cycle's point before the router: tick()'s early()
    Sample,  // a cycle's sample point: tick()'s sample()
    None,    // a rising edge: nothing to do
  };

  // `pins`: the block's clk and rst, which the clock drives.
  GatedClock(const FabricClock& clock, Sample sample, ClockPins& pins);

  // The body of the transactor's SC_METHOD, whose next trigger it sets: at time 0
  // `configure()` drives the block's static inputs; at the sample point of each cycle c
  // `sample(c)` checks the block's outputs and drives its inputs, and returns whether the block
  // has work on (busy clocks on to the next edge; idle stops the clock until wake()). With
  // Sample::Both, `early(c)` reads the block's outputs for c before the router acts.
  template <typename Configure, typename SampleFn, typename EarlyFn = void (*)(Cycle)>
  void tick(
      Configure configure, SampleFn sample, EarlyFn early = [](Cycle) {}) {
    switch (step()) {
      case Step::Reset:
        configure();
        return;
      case Step::None:
        return;
      case Step::Early:
        early(m_cycle);
        return;
      case Step::Sample:
        run_on(sample(m_cycle));
        return;
    }
  }
  // The transactor has work: a stopped clock resumes at the first sample point from now, through
  // its rising edge if that is still to come. A running clock runs on.
  void wake();

 private:
  // What this activation is for (sets the next trigger); and the clock after a sample.
  Step step();
  void run_on(bool busy);
  std::uint64_t edge_at(Cycle c) const { return c * m_period - m_period / 2; }  // time units
  std::uint64_t sample_at(Cycle c) const { return edge_at(c) + m_edge_to_sample; }

  ClockPins& m_pins;
  std::uint64_t m_period;          // SystemC time units
  std::uint64_t m_edge_to_sample;  // from a rising edge to its cycle's sample point
  bool m_early;                    // Sample::Both: a point before the router first
  // The delays of a running clock: rising edge to the first point (early or sample), early to
  // sample point, sample point to next edge.
  sc_core::sc_time m_to_first, m_to_sample, m_to_edge;
  enum class Phase { Reset, Edge, Early, Sample, Stopped } m_phase = Phase::Reset;  // what's next
  Cycle m_cycle = 0;
  sc_core::sc_event m_wake;
};

}  // namespace angara
