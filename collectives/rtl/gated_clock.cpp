#include "collectives/rtl/gated_clock.h"

#include <algorithm>

namespace angara {
namespace {

sc_core::sc_time from_now(std::uint64_t at) {
  return sc_core::sc_time::from_value(at - sc_core::sc_time_stamp().value());
}

}  // namespace

GatedClock::GatedClock(const FabricClock& clock, Sample sample, ClockPins& pins, RtlModel& model,
                       bool edge_apart)
    : m_pins(pins),
      m_model(model),
      m_period(clock.period().value()),
      m_early(sample == Sample::Both),
      m_edge_apart(edge_apart) {
  const std::uint64_t half = m_period / 2, quarter = m_period / 4;
  m_edge_to_sample = sample == Sample::BeforeRouter ? half - quarter : half + quarter;
  const std::uint64_t to_first = m_early ? half - quarter : m_edge_to_sample;
  m_to_first = sc_core::sc_time::from_value(to_first);
  m_to_sample = sc_core::sc_time::from_value(m_edge_to_sample - to_first);
}

GatedClock::Phase GatedClock::begin() {
  const Phase phase = m_phase;
  switch (phase) {
    case Phase::Reset:
      m_pins.rst = true;
      break;
    case Phase::Edge:
      rising_edge();
      m_phase = m_early ? Phase::Early : Phase::Sample;
      sc_core::next_trigger(m_to_first);
      break;
    case Phase::Early:
    case Phase::Sample:
      if (m_edge_due) rising_edge();
      break;
    case Phase::Stopped:  // woken by nothing but wake(), which moves the phase on
      sc_core::next_trigger(m_wake);
      break;
  }
  return phase;
}

void GatedClock::rising_edge() {
  m_pins.clk = true;
  m_model.eval(edge_at(m_cycle));
  m_edge_due = false;
}

void GatedClock::reset_done() {
  eval();
  m_cycle = 1;
  m_edge_due = true;
  to_cycle();
}

void GatedClock::early_done() {
  m_pins.clk = false;
  m_pins.rst = false;
  eval();
  m_phase = Phase::Sample;
  sc_core::next_trigger(m_to_sample);
}

void GatedClock::sample_done(bool busy) {
  m_pins.clk = false;
  m_pins.rst = false;
  eval();
  if (!busy) {
    m_phase = Phase::Stopped;
    sc_core::next_trigger(m_wake);
    return;
  }
  ++m_cycle;
  m_edge_due = true;
  to_cycle();
}

std::uint64_t GatedClock::first_point() {
  m_phase = m_edge_apart ? Phase::Edge : m_early ? Phase::Early : Phase::Sample;
  return edge_at(m_cycle) + (m_edge_apart ? 0 : m_to_first.value());
}

void GatedClock::to_cycle() {
  sc_core::next_trigger(from_now(first_point()));
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
  m_edge_due = edge_at(c) >= now;
  if (m_edge_due) {
    m_wake.notify(from_now(first_point()));
  } else {
    m_phase = Phase::Sample;
    m_wake.notify(from_now(sample_at(c)));
  }
}

}  // namespace angara
