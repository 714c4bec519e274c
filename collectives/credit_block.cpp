#include "collectives/credit_block.h"

namespace angara {

bool CreditBlock::result_left(int tree, Cycle at) {
  ++m_completed[tree];
  if (m_unreported++ == 0) m_first_unreported = at;
  if (++m_left_since_credit[tree] < kBatch) return false;
  m_left_since_credit[tree] = 0;
  return true;
}

bool CreditBlock::report_due(Cycle now) const {
  return m_unreported >= kReportResults || (m_unreported > 0 && now >= report_deadline());
}

std::array<std::uint32_t, kMaxTrees> CreditBlock::take_report() {
  m_unreported = 0;
  return m_completed;
}

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
