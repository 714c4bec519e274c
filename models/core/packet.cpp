#include "models/core/packet.h"

#include "models/core/rng.h"

namespace angara {
namespace {

struct Field {
  int shift;
  int bits;
};
constexpr Field kKind{0, 4}, kSrc{4, 16}, kDst{20, 16}, kTree{36, 4}, kReduce{40, 4}, kOp{44, 4},
    kSize{48, 5}, kVc{53, 3};

constexpr std::uint64_t put(std::uint64_t value, Field f) {
  return (value & ((std::uint64_t{1} << f.bits) - 1)) << f.shift;
}
constexpr std::uint64_t get(std::uint64_t word, Field f) {
  return (word >> f.shift) & ((std::uint64_t{1} << f.bits) - 1);
}

constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// One well-mixed word per packet (SplitMix64 of its sequence number), then a cheap distinct step
// per flit: `f(i, flit)` for each data flit in turn. Each flit's words follow from the last's,
// with no multiply (a packet's pattern is written once and read once).
template <typename F>
void walk_pattern(const PacketHeader& h, F&& f) {
  std::uint64_t lo = mix64(h.sequence() + kGolden), index = 0;
  for (int i = 0; i < h.data_flits; ++i, lo += kGolden, index += std::uint64_t{1} << 32) {
    f(i, Flit{lo, ~lo ^ index});
  }
}

}  // namespace

Flit encode_header(const PacketHeader& h) {
  return {put(static_cast<std::uint64_t>(h.kind), kKind) | put(h.src, kSrc) | put(h.dst, kDst) |
              put(h.tree_id, kTree) | put(h.reduce_id, kReduce) | put(h.op, kOp) |
              put(h.data_flits, kSize) | put(h.vc, kVc),
          h.high_word};
}

PacketHeader decode_header(const Flit& f) {
  PacketHeader h;
  h.kind = static_cast<PacketKind>(get(f.lo, kKind));
  h.src = static_cast<NodeId>(get(f.lo, kSrc));
  h.dst = static_cast<NodeId>(get(f.lo, kDst));
  h.tree_id = static_cast<std::uint8_t>(get(f.lo, kTree));
  h.reduce_id = static_cast<std::uint8_t>(get(f.lo, kReduce));
  h.op = static_cast<std::uint8_t>(get(f.lo, kOp));
  h.data_flits = static_cast<std::uint8_t>(get(f.lo, kSize));
  h.vc = static_cast<VcId>(get(f.lo, kVc));
  h.high_word = f.hi;
  return h;
}

void fill_check_pattern(Packet& packet) {
  walk_pattern(packet.header, [&](int i, const Flit& f) { packet.data[i] = f; });
}

bool check_pattern_intact(const Packet& packet) {
  std::uint64_t differs = 0;  // no branch per flit: a corrupted payload is a model error
  walk_pattern(packet.header, [&](int i, const Flit& f) {
    differs |= (packet.data[i].lo ^ f.lo) | (packet.data[i].hi ^ f.hi);
  });
  return differs == 0;
}

}  // namespace angara
