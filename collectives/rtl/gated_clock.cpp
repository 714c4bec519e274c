#include "collectives/rtl/gated_clock.h"

#include <algorithm>

namespace angara {
namespace {

sc_core::sc_time from_now(std::uint64_t at) {
  return sc_core::sc_time::from_value(at - sc_core::sc_time_stamp().value());
}

}  // namespace

GatedClock::GatedClock(const FabricClock& clock, Sample sample, ClockPins& pins)
    : m_pins(pins), m_period(clock.period().value()), m_early(sample == Sample::Both) {
  const std::uint64_t half = m_period / 2, quarter = m_period / 4;
  m_edge_to_sample = sample == Sample::BeforeRouter ? half - quarter : half + quarter;
  const std::uint64_t to_first = m_early ? half - quarter : m_edge_to_sample;
  m_to_first = sc_core::sc_time::from_value(to_first);
  m_to_sample = sc_core::sc_time::from_value(m_edge_to_sample - to_first);
  m_to_edge = sc_core::sc_time::from_value(m_period - m_edge_to_sample);
}

GatedClock::Step GatedClock::step() {
  switch (m_phase) {
    case Phase::Reset:
      m_pins.rst.write(true);
      m_cycle = 1;
      m_phase = Phase::Edge;
      sc_core::next_trigger(from_now(edge_at(m_cycle)));
      return Step::Reset;
    case Phase::Edge:
      m_pins.clk.write(true);
      m_phase = m_early ? Phase::Early : Phase::Sample;
      sc_core::next_trigger(m_to_first);
      return Step::None;
    case Phase::Early:
      m_pins.clk.write(false);
      m_pins.rst.write(false);
      m_phase = Phase::Sample;
      sc_core::next_trigger(m_to_sample);
      return Step::Early;
    case Phase::Sample:
      m_pins.clk.write(false);
      m_pins.rst.write(false);
      return Step::Sample;
    case Phase::Stopped:  // woken by nothing but wake(), which moves the phase on
      sc_core::next_trigger(m_wake);
      return Step::None;
  }
  return Step::None;
}

void GatedClock::run_on(bool busy) {
  if (busy) {
    m_phase = Phase::Edge;
    ++m_cycle;
    sc_core::next_trigger(m_to_edge);
  } else {
    m_phase = Phase::Stopped;
    sc_core::next_trigger(m_wake);
  }
}

void GatedClock::wake() {
  if (m_phase != Phase::Stopped) return;
  // The first cycle c after the last one sampled whose sample point is not past:
  // sample_at(c) = c period - period/2 + edge_to_sample >= now.
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  const std::uint64_t from = now + m_period / 2;
  Cycle c = from > m_edge_to_sample ? (from - m_edge_to_sample + m_period - 1) / m_period : 0;
  c = std::max(c, m_cycle + 1);
  m_cycle = c;
  if (edge_at(c) >= now) {
    m_phase = Phase::Edge;
    m_wake.notify(from_now(edge_at(c)));
  } else {
    m_phase = Phase::Sample;
    m_wake.notify(from_now(sample_at(c)));
  }
}

}  // namespace angara
