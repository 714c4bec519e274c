#pragma once
// What the collective subnet's packets carry, as the hardware and the node's software both read
// it: the subnet's fixed sizes, the reduction operations (commutative and associative, applied
// word by word to 64-bit signed integers, two words to a 128-bit flit), the reduce op field and
// the report of completed reduces.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "models/core/packet.h"
#include "models/core/params.h"

namespace angara {

inline constexpr int kMaxTrees = 16;        // TreeId 0..15: rows per node in the routing table
inline constexpr int kReducesPerTree = 16;  // ReduceId 0..15: reduces in flight per tree
inline constexpr int kWordsPerFlit = 2;

inline std::int64_t reduce_word(Reduction op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case Reduction::Min:
      return std::min(a, b);
    case Reduction::Max:
      return std::max(a, b);
    case Reduction::Sum:
      break;
  }
  // Two's-complement wrap-around, as an adder in hardware (no undefined overflow).
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

inline std::int64_t word(const Flit& f, int i) {
  return static_cast<std::int64_t>(i == 0 ? f.lo : f.hi);
}

inline void set_word(Flit& f, int i, std::int64_t v) {
  (i == 0 ? f.lo : f.hi) = static_cast<std::uint64_t>(v);
}

// acc = acc op in, flit by flit, over `flits` data flits.
inline void reduce_flits(Reduction op, Flit* acc, const Flit* in, int flits) {
  for (int f = 0; f < flits; ++f) {
    for (int w = 0; w < kWordsPerFlit; ++w) {
      set_word(acc[f], w, reduce_word(op, word(acc[f], w), word(in[f], w)));
    }
  }
}

inline std::string_view reduction_name(Reduction op) {
  switch (op) {
    case Reduction::Min:
      return "min";
    case Reduction::Max:
      return "max";
    case Reduction::Sum:
      break;
  }
  return "sum";
}

// The header's 4-bit op field of a reduce packet: the reduction, and whether the root broadcasts
// the result down the tree (allreduce) or sends it point-to-point to header.dst (reduce).
struct ReduceOp {
  Reduction reduction = Reduction::Sum;
  bool all = false;

  std::uint8_t encode() const {
    return static_cast<std::uint8_t>(static_cast<int>(reduction) | (all ? 4 : 0));
  }
  static ReduceOp decode(std::uint8_t field) {
    return {static_cast<Reduction>(field & 3), (field & 4) != 0};
  }
};

// The report to the processor: one 32-bit count of completed reduces per tree, four per flit.
using ReduceReport = std::array<std::uint32_t, kMaxTrees>;
void pack_report(const ReduceReport& counts, Packet& packet);
ReduceReport unpack_report(const Packet& packet);

}  // namespace angara
