#include "models/fabric/credit_counter.h"

#include <algorithm>

namespace angara {

int CreditCounter::at(Cycle now) {
  while (!m_pending.empty() && m_pending.front().first <= now) {
    m_available += m_pending.front().second;
    m_pending.pop_front();
  }
  return m_available;
}

Cycle CreditCounter::when(const BufferClaim& claim) const {
  int free = m_available;
  if (free >= claim.need) return claim.from;
  for (std::size_t i = 0; i < m_pending.size(); ++i) {
    free += m_pending[i].second;
    if (free >= claim.need) return std::max(claim.from, m_pending[i].first);
  }
  return kNever;
}

bool CreditCounter::add(Cycle at, int flits) {
  m_pending.push_back({at, flits});
  const bool wake = m_waited_on;
  m_waited_on = false;
  return wake;
}

}  // namespace angara
