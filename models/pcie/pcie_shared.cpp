#include "models/pcie/pcie_shared.h"

namespace angara {

PcieShared::PcieShared(int node_count, const PcieParams& pcie_params, const NodeParams& node_params,
                       const SimParams& sim, const FabricParams& fabric)
    : nodes(node_count),
      node(node_params),
      pcie(pcie_params),
      latency_ps(PcieTiming::ps(pcie_params.latency_ns)),
      packet_ps(pcie.serialization_ps(pcie_units::kPacketBytes)),
      train_packets(sim.mode == SimMode::Lt ? static_cast<std::uint32_t>(sim.train_packets) : 1),
      paced(sim.mode == SimMode::Lt && !sim.lt_buffers),
      zero_load(fabric),
      packet_time(zero_load.local().serialization(kMaxPacketFlits)),
      buffer_drain(zero_load.link().serialization(fabric.router.buffer_flits)),
      reduces_in_flight(static_cast<std::uint32_t>(fabric.collective.reduces_in_flight)) {}

}  // namespace angara
