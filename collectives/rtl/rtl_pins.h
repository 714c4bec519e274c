#pragma once
// What a transactor and a block's binding share: the types of the block's pins and the block
// behind them. The pins are plain values, Verilator's C++ ports as the contract (docs/RTL.md)
// sizes them: bool for one bit, uint32_t up to 32, 32-bit words beyond (word 0 the lowest).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace angara {

template <int Bits>
using Wide = std::array<std::uint32_t, (Bits + 31) / 32>;

// A wide value as hexadecimal digits, the most significant first, every digit written.
template <std::size_t Words>
std::string to_hex(const std::array<std::uint32_t, Words>& v) {
  std::string s;
  for (std::size_t w = Words; w-- > 0;) s += fmt::format("{:08x}", v[w]);
  return s;
}

// The pins a GatedClock drives, first in every clocked block's pins.
struct ClockPins {
  bool clk = false, rst = false;
};

// A verilated block behind its pins (made by the block's binding).
class RtlModel {
 public:
  virtual ~RtlModel() = default;
  // The pins' inputs into the block, the block evaluated, its outputs back into the pins. `at`:
  // when the change happens (SystemC time units), for the block's waveform.
  virtual void eval(std::uint64_t at) = 0;
};

}  // namespace angara
