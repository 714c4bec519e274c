#include "models/core/packet_ledger.h"

#include <fmt/format.h>
#include <algorithm>

namespace angara {

void PacketLedger::injected(const Packet& packet) {
  const std::uint64_t seq = packet.header.sequence();
  const auto src = static_cast<std::size_t>(seq >> kSeqSourceShift);
  if (src >= m_arrived.size()) m_arrived.resize(src + 1);
  auto& arrived = m_arrived[src];
  if (seq != sequence(static_cast<NodeId>(src), arrived.size())) {
    model_error(report_id::kConservation,
                fmt::format("packet #{} injected out of sequence (expected #{})", seq,
                            sequence(static_cast<NodeId>(src), arrived.size())));
  }
  arrived.push_back(false);
  ++m_injected;
  if (m_other_sources) {
    if (src >= m_injected_by.size()) m_injected_by.resize(src + 1);
    ++m_injected_by[src];
  }
}

void PacketLedger::delivered(const Packet& packet, NodeId at) {
  const auto& h = packet.header;
  const auto src = static_cast<std::size_t>(h.sequence() >> kSeqSourceShift);
  const std::uint64_t n = h.sequence() & ((std::uint64_t{1} << kSeqSourceShift) - 1);
  if (m_other_sources) {  // another rank's source: the end's counts check that it was injected
    if (src >= m_arrived.size()) m_arrived.resize(src + 1);
    if (n >= m_arrived[src].size()) m_arrived[src].resize(n + 1);
  }
  if (src >= m_arrived.size() || n >= m_arrived[src].size()) {
    model_error(
        report_id::kConservation,
        fmt::format("packet #{} delivered to node {} but never injected", h.sequence(), at));
  }
  if (m_arrived[src][n]) {
    model_error(report_id::kConservation,
                fmt::format("packet #{} delivered twice (now to node {})", h.sequence(), at));
  }
  m_arrived[src][n] = true;
  if (h.dst != at) {
    model_error(report_id::kConservation, fmt::format("packet #{} for node {} delivered to node {}",
                                                      h.sequence(), h.dst, at));
  }
  if (!check_pattern_intact(packet)) {
    model_error(report_id::kConservation,
                fmt::format("packet #{} from node {} arrived with a corrupted payload",
                            h.sequence(), h.src));
  }
  ++m_delivered;
  m_last_delivery = std::max(m_last_delivery, packet.tail_at);
}

PacketLedger::SourceCounts PacketLedger::counts_by_source(int sources) const {
  const auto n = static_cast<std::size_t>(sources);
  SourceCounts counts{std::vector<std::uint64_t>(2 * n, 0), std::vector<std::uint64_t>(n, 0)};
  for (std::size_t src = 0; src < m_arrived.size() && src < n; ++src) {
    const auto& arrived = m_arrived[src];
    counts.injected_delivered[2 * src] =
        m_other_sources ? (src < m_injected_by.size() ? m_injected_by[src] : 0) : arrived.size();
    counts.injected_delivered[2 * src + 1] =
        static_cast<std::uint64_t>(std::count(arrived.begin(), arrived.end(), true));
    const auto last = std::find(arrived.rbegin(), arrived.rend(), true);
    counts.reach[src] = static_cast<std::uint64_t>(arrived.rend() - last);
  }
  return counts;
}

}  // namespace angara
