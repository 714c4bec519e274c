#pragma once
// The conservation checker, always on: every packet injected must be delivered exactly once, to
// its destination, with its payload intact. A violation is a model error (ModelError).
// Sequence numbers are (source node << 40 | n), n counting that source's packets from 0, so one
// bit per packet records what arrived.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/core/model_error.h"
#include "models/core/packet.h"

namespace angara {

class PacketLedger {
 public:
  // Split over ranks: packets of other ranks' sources arrive here too, and whether each was
  // injected is checked at the end, with the counts of every rank (counts_by_source).
  void take_other_sources() { m_other_sources = true; }
  void injected(const Packet& packet);
  // `at` is the node whose endpoint received the packet.
  void delivered(const Packet& packet, NodeId at);

  std::uint64_t in_flight() const { return m_injected - m_delivered; }

  static constexpr int kSeqSourceShift = 40;
  static std::uint64_t sequence(NodeId src, std::uint64_t n) {
    return (std::uint64_t{src} << kSeqSourceShift) | n;
  }
  std::uint64_t injected_count() const { return m_injected; }
  std::uint64_t delivered_count() const { return m_delivered; }
  Cycle last_delivery() const { return m_last_delivery; }
  // Per source of `sources`: its packets injected and delivered here ([2 src], [2 src + 1]),
  // and 1 + the highest number of one delivered here ([src]; 0 if none).
  struct SourceCounts {
    std::vector<std::uint64_t> injected_delivered;
    std::vector<std::uint64_t> reach;
  };
  SourceCounts counts_by_source(int sources) const;

 private:
  std::vector<std::vector<bool>> m_arrived;  // [source][n]: delivered yet?
  std::uint64_t m_injected = 0;
  std::uint64_t m_delivered = 0;
  Cycle m_last_delivery = 0;
  std::vector<std::uint64_t> m_injected_by;  // [source], with other sources
  bool m_other_sources = false;
};

}  // namespace angara
