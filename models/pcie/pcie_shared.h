#pragma once
// PcieShared: the parameters every PCIe adapter of one machine reads and none changes, with the
// byte arithmetic of packets and the clock conversions its host window and engines share.

#include <systemc>

#include <cstdint>

#include "models/core/params.h"
#include "models/core/zero_load.h"
#include "models/fabric/fabric_protocol.h"
#include "models/pcie/pcie_timing.h"

namespace angara {
namespace pcie_units {

inline constexpr std::uint64_t kFlitBytes = kFlitBits / 8;
inline constexpr std::uint64_t kPacketBytes = kMaxDataFlits * kFlitBytes;  // a packet's data

constexpr std::uint64_t round_to_flits(std::uint64_t bytes) {
  return (bytes + kFlitBytes - 1) / kFlitBytes * kFlitBytes;
}

inline std::uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}
// The first cycle at or after `at_ps` (not in the past).
inline Cycle cycle_at(const FabricClock& clock, std::uint64_t at_ps) {
  const std::uint64_t period = clock.period().value();
  return (at_ps + period - 1) / period;
}

}  // namespace pcie_units

// One copy per machine, hot in cache for all its adapters (a copy per adapter would be cache
// misses per message on a large machine).
struct PcieShared {
  PcieShared(int nodes, const PcieParams& pcie, const NodeParams& node, const SimParams& sim,
             const FabricParams& fabric);

  int nodes;  // how many nodes the machine has (a send to another is refused)
  NodeParams node;
  PcieTiming pcie;
  std::uint64_t latency_ps;
  std::uint64_t packet_ps;      // a whole packet's PCIe transfer
  std::uint32_t train_packets;  // at most, per transaction of a timing-only send
  bool paced;                   // LT without buffers: bytes count as sent as reached() says
  ZeroLoad zero_load;
  Cycle packet_time;                // of a whole packet on the injection channel (trains)
  Cycle buffer_drain;               // LT: a router input buffer's flits over a link
  std::uint32_t reduces_in_flight;  // per tree from the processor (collective.reduces_in_flight)
};

}  // namespace angara
