#include "models/pcie/host_dma.h"

#include "models/pcie/host_link.h"
#include "models/pcie/pcie_shared.h"

namespace angara {

void HostDma::write(std::uint64_t address, const void* data, std::size_t bytes,
                    std::uint64_t at_ps) {
  sc_core::sc_time delay = sc_core::sc_time::from_value(at_ps - pcie_units::now_ps());
  post_write(m_socket, "DMA", m_node, address, data, bytes, delay);
}

}  // namespace angara
