#pragma once
// Reading the VCD files the model writes (models/core/tracer.h), comparing two of them signal by
// signal, and drawing a window of one as an SVG timing diagram.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace angara {

struct VcdSignal {
  std::string name;  // full path: router_0_0_0.vcup_xp.stage
  int width = 1;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> changes;  // (time ps, value), in order

  std::uint64_t value_at(std::uint64_t time) const;
};

struct Vcd {
  std::vector<VcdSignal> signals;  // in declaration order
  const VcdSignal* find(const std::string& name) const;
};

// The waveform in `text`; throws std::runtime_error naming the line of anything it cannot read
// (a file cut short, a width or value it does not take, no signals at all).
Vcd parse_vcd(const std::string& text);
// The VCD file at `path`; throws a ConfigError when it is missing or not a regular file (never
// opening a FIFO or a directory), std::runtime_error when it cannot be parsed.
Vcd read_vcd(const std::string& path);

// None if the two carry the same signals with the same changes; otherwise a message a person can
// read: the first signal (in declaration order) that differs, the first time it does, and the
// value in each file then; or the signals one file has and the other lacks.
std::optional<std::string> compare_vcd(const Vcd& expected, const Vcd& actual);

// An SVG timing diagram of `signals` from `from_ps` to `to_ps`, one row per signal, with a grid
// line per cycle (`period_ps`) and each value printed where it changes.
std::string draw_timing_svg(const Vcd& vcd, const std::vector<std::string>& signals,
                            std::uint64_t from_ps, std::uint64_t to_ps, std::uint64_t period_ps,
                            const std::string& title);

}  // namespace angara
