#include "models/pcie/host_link.h"

#include <fmt/format.h>

#include <deque>

#include "models/core/packet_ledger.h"

namespace angara {

tlm::tlm_sync_enum HostLinkEnd::nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                sc_core::sc_time&) {
  SC_REPORT_ERROR("angara/host_link", "the host's PCIe link takes blocking transport only");
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum HostLinkEnd::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                sc_core::sc_time&) {
  SC_REPORT_ERROR("angara/host_link", "the host's PCIe link takes blocking transport only");
  return tlm::TLM_COMPLETED;
}

void post_write(tlm::tlm_initiator_socket<>& socket, const char* what, unsigned node,
                std::uint64_t address, const void* data, std::size_t bytes,
                sc_core::sc_time& delay) {
  // Payloads are reused (constructing one allocates), one per nesting depth: the target of a
  // write may write in turn (a send stored into the endpoint lands a count in host memory).
  static std::deque<tlm::tlm_generic_payload> payloads;
  static std::size_t depth = 0;
  if (depth == payloads.size()) payloads.emplace_back();
  tlm::tlm_generic_payload& gp = payloads[depth++];
  struct Leave {
    ~Leave() { --depth; }
  } leave;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(address);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(const_cast<void*>(data)));
  gp.set_data_length(static_cast<unsigned int>(bytes));
  gp.set_streaming_width(static_cast<unsigned int>(bytes));
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(gp, delay);
  if (!gp.is_response_ok()) {
    throw ModelError(fmt::format("node {}: {}: write of {} bytes to {:#x} refused: {}", node, what,
                                 bytes, address, gp.get_response_string()));
  }
}

}  // namespace angara
