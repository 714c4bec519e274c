#include "models/pcie/pcie_timing.h"

namespace angara {

double PcieTiming::data_gbps() const {
  const double efficiency = m_params.encoding == PcieEncoding::B8b10b ? 8.0 / 10.0 : 128.0 / 130.0;
  return m_params.lanes * m_params.transfer_gtps * efficiency;
}

std::uint64_t PcieTiming::tlps(std::uint64_t bytes) const {
  const auto mps = static_cast<std::uint64_t>(m_params.max_payload_bytes);
  return bytes == 0 ? 1 : (bytes + mps - 1) / mps;  // an empty transfer is still one TLP
}

std::uint64_t PcieTiming::wire_bytes(std::uint64_t bytes) const {
  return bytes + tlps(bytes) * static_cast<std::uint64_t>(m_params.tlp_overhead_bytes);
}

double PcieTiming::serialization_ns(std::uint64_t bytes) const {
  return static_cast<double>(wire_bytes(bytes)) * 8.0 / data_gbps();
}

double PcieTiming::payload_gbps(std::uint64_t bytes) const {
  return static_cast<double>(bytes) * 8.0 / serialization_ns(bytes);
}

}  // namespace angara
