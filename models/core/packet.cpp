#include "models/core/packet.h"

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

// SplitMix64: a cheap, well-mixed function of the sequence number and word index.
constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// One well-mixed word per packet, then a cheap distinct step per flit.
Flit pattern(std::uint64_t base, int index) {
  const std::uint64_t lo = base + static_cast<std::uint64_t>(index) * 0x9e3779b97f4a7c15ULL;
  return {lo, ~lo ^ (static_cast<std::uint64_t>(index) << 32)};
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
  const std::uint64_t base = mix(packet.header.sequence());
  for (int i = 0; i < packet.header.data_flits; ++i) packet.data[i] = pattern(base, i);
}

bool check_pattern_intact(const Packet& packet) {
  const std::uint64_t base = mix(packet.header.sequence());
  for (int i = 0; i < packet.header.data_flits; ++i) {
    if (packet.data[i] != pattern(base, i)) return false;
  }
  return true;
}

}  // namespace angara
