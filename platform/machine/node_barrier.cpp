#include "platform/machine/node_barrier.h"

#include <algorithm>

namespace angara {

NodeBarrier::NodeBarrier(int local, Cycle latency, bool split)
    : m_local(local), m_latency(latency), m_split(split) {}

void NodeBarrier::arrive(Cycle at) {
  m_latest = std::max(m_latest, at);
  if (++m_arrived == m_local && !m_split) release(m_latest);
}

// 0 while some node here has not arrived; else the complement of the latest arrival, so that the
// minimum over the ranks is 0 until every rank's nodes arrived, then the complement of the last.
std::uint64_t NodeBarrier::word() const {
  return m_arrived == m_local ? ~m_latest : 0;
}

Cycle NodeBarrier::agreed(std::uint64_t word) {
  return word == 0 ? kNever : release(~word);
}

Cycle NodeBarrier::release(Cycle latest) {
  m_arrived = 0;
  m_latest = 0;
  const Cycle at = latest + m_latency;
  if (m_release) m_release(at);
  return at;
}

}  // namespace angara
