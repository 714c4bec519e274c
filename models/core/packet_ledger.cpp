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
}

void PacketLedger::delivered(const Packet& packet, NodeId at) {
  const auto& h = packet.header;
  const auto src = static_cast<std::size_t>(h.sequence() >> kSeqSourceShift);
  const std::uint64_t n = h.sequence() & ((std::uint64_t{1} << kSeqSourceShift) - 1);
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

}  // namespace angara
