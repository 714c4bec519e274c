#include "models/core/packet_ledger.h"

#include <fmt/format.h>
#include <algorithm>

namespace angara {

void PacketLedger::injected(const Packet& packet) {
  if (!m_in_flight.insert(packet.header.seq).second) {
    throw ModelError(fmt::format("packet #{} injected twice", packet.header.seq));
  }
  ++m_injected;
}

void PacketLedger::delivered(const Packet& packet, NodeId at) {
  const auto& h = packet.header;
  if (m_in_flight.erase(h.seq) == 0) {
    throw ModelError(
        fmt::format("packet #{} delivered to node {} but not in flight (duplicate "
                    "or never injected)",
                    h.seq, at));
  }
  if (h.dst != at) {
    throw ModelError(fmt::format("packet #{} for node {} delivered to node {}", h.seq, h.dst, at));
  }
  if (!check_pattern_intact(packet)) {
    throw ModelError(
        fmt::format("packet #{} from node {} arrived with a corrupted payload", h.seq, h.src));
  }
  ++m_delivered;
  m_last_delivery = std::max(m_last_delivery, packet.tail_at);
}

}  // namespace angara
