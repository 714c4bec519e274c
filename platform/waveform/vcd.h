#pragma once
// Reading the VCD files the model writes (models/core/tracer.h), comparing two of them signal by
// signal, and drawing a window of one as an SVG timing diagram.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace angara {

// A value as a VCD file gives it: a character per bit, most significant first, each 0, 1, x
// (unknown) or z (high impedance), as wide as its signal.
using VcdValue = std::string;

struct VcdSignal {
  std::string name;  // full path: router_0_0_0.vcup_xp.stage
  int width = 1;
  // (time in fs, value) where the value changes, in order of time: the file's $timescale
  // applied, so that files written in other units compare, and at one time only the last value.
  std::vector<std::pair<std::uint64_t, VcdValue>> changes;

  // The value at `time_fs`: all x before the first change.
  VcdValue value_at(std::uint64_t time_fs) const;
  // The same as a number (the model's own waveforms are two-state; x and z bits read as 0).
  std::uint64_t number_at(std::uint64_t time_fs) const { return vcd_number(value_at(time_fs)); }
  static std::uint64_t vcd_number(const VcdValue& value);
};

struct Vcd {
  std::vector<VcdSignal> signals;  // in declaration order
  const VcdSignal* find(const std::string& name) const;
};

// The waveform in `text`, as the model and RTL simulators write it (four-state values, any
// width, any $timescale, a signal under several names); throws std::runtime_error naming the
// line of anything it cannot read (a file cut short, a real or string value, no signals at all).
Vcd parse_vcd(const std::string& text);
// The VCD file at `path`; throws a ConfigError when it is missing or not a regular file (never
// opening a FIFO or a directory), std::runtime_error when it cannot be parsed.
Vcd read_vcd(const std::string& path);

// None if the two carry the same signals with the same changes; otherwise a message a person can
// read: the first signal (in declaration order) that differs, the first time it does, and the
// value in each file then; or the signals one file has and the other lacks.
// Times print in ps (with ns), values in decimal, or as Verilog literals where they hold x or z
// bits or are wider than 64 bits (4'b10xz, 128'hx0f...).
std::optional<std::string> compare_vcd(const Vcd& expected, const Vcd& actual);

// How a value reads in a message: decimal when two-state and at most 64 bits, else a Verilog
// literal in binary (up to 16 bits) or hex (a digit x or z where all its bits are, X or Z where
// some are).
std::string vcd_value_text(const VcdValue& value);

// An SVG timing diagram of `signals` from `from_fs` to `to_fs`, one row per signal, with a grid
// line per cycle (`period_fs`) and each value printed where it changes.
std::string draw_timing_svg(const Vcd& vcd, const std::vector<std::string>& signals,
                            std::uint64_t from_fs, std::uint64_t to_fs, std::uint64_t period_fs,
                            const std::string& title);

}  // namespace angara
