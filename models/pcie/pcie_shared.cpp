#include "models/pcie/pcie_shared.h"

namespace angara {

PcieShared::PcieShared(int node_count, const Config& config)
    : nodes(node_count),
      node(config.node),
      pcie(config.pcie),
      latency_ps(PcieTiming::ps(config.pcie.latency_ns)),
      packet_ps(pcie.serialization_ps(pcie_units::kPacketBytes)),
      train_packets(config.sim.mode == SimMode::Lt
                        ? static_cast<std::uint32_t>(config.sim.train_packets)
                        : 1),
      paced(config.sim.mode == SimMode::Lt),
      zero_load(config),
      packet_time(zero_load.local().serialization(kMaxPacketFlits)),
      buffer_drain(zero_load.link().serialization(config.router.buffer_flits)) {}

}  // namespace angara
