#include "models/core/collective_format.h"

namespace angara {

void pack_report(const ReduceReport& counts, Packet& packet) {
  packet.header.data_flits = kMaxTrees / 4;
  for (int t = 0; t < kMaxTrees; ++t) {
    std::uint64_t& word = (t % 4) < 2 ? packet.data[t / 4].lo : packet.data[t / 4].hi;
    word |= std::uint64_t{counts[t]} << (32 * (t % 2));
  }
}

ReduceReport unpack_report(const Packet& packet) {
  ReduceReport counts{};
  for (int t = 0; t < kMaxTrees; ++t) {
    const std::uint64_t word = (t % 4) < 2 ? packet.data[t / 4].lo : packet.data[t / 4].hi;
    counts[t] = static_cast<std::uint32_t>(word >> (32 * (t % 2)));
  }
  return counts;
}

}  // namespace angara
