#pragma once
// HostDma: a node's PCIe adapter writing into its host's memory (receive rings, records, counts),
// each write landing at a time the adapter has booked on the link.

#include <tlm>

#include <cstddef>
#include <cstdint>

#include "models/core/ids.h"

namespace angara {

class HostDma {
 public:
  HostDma(NodeId node, tlm::tlm_initiator_socket<>& socket) : m_node(node), m_socket(socket) {}

  // Writes `bytes` from `data` at `address` in host memory, landing at `at_ps` (not in the past).
  // Throws ModelError if the host refuses it.
  void write(std::uint64_t address, const void* data, std::size_t bytes, std::uint64_t at_ps);

 private:
  NodeId m_node;
  tlm::tlm_initiator_socket<>& m_socket;
};

}  // namespace angara
