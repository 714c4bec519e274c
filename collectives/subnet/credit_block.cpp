#include "collectives/subnet/credit_block.h"

namespace angara {

bool CreditBlock::result_left(int tree, Cycle at) {
  ++m_completed[tree];
  if (m_unreported++ == 0) m_first_unreported = at;
  if (++m_left_since_credit[tree] < m_batch) return false;
  m_left_since_credit[tree] = 0;
  return true;
}

bool CreditBlock::report_due(Cycle now) const {
  return m_unreported >= m_report_results || (m_unreported > 0 && now >= report_deadline());
}

std::array<std::uint32_t, kMaxTrees> CreditBlock::take_report() {
  m_unreported = 0;
  return m_completed;
}

}  // namespace angara
