#include "models/router/credit_counter.h"

#include <algorithm>



namespace angara {

int CreditCounter::at(Cycle now) {
  while (!m_pending.empty() && m_pending.front().first <= now) {
    m_available += m_pending.front().second;
    m_pending.pop_front();
  }
  return m_available;
}

Cycle CreditCounter::when(Cycle from, int need) const {
  int free = m_available;
  if (free >= need) return from;
  for (const auto& [cycle, flits] : m_pending) {
    free += flits;
    if (free >= need) return std::max(from, cycle);
  }
  return kNever;
}

bool CreditCounter::add(Cycle at, int flits) {
  m_pending.emplace_back(at, flits);
  const bool wake = m_waited_on;
  m_waited_on = false;
  return wake;
}

}  // namespace angara
