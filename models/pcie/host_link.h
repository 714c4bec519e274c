#pragma once
// The host side of PCIe, shared by the host and its endpoint: both ends speak blocking transport
// only (posted writes with annotated delays; a CPU program cannot wait), each end both initiator
// and target.

#include <tlm>

#include <cstdint>
#include <string>
#include <string_view>

namespace angara {

// The transport interfaces of a host-link end, with every non-blocking, DMI and debug path
// refused; a module adds b_transport.
class HostLinkEnd : public tlm::tlm_fw_transport_if<>, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

// Refuses the write `gp` with `status`, saying why: `reason` names the node, the channel and the
// rule broken, and goes into the writer's error (post_write), which the status alone could not.
void refuse(tlm::tlm_generic_payload& gp, tlm::tlm_response_status status, std::string reason);
// The reason the other end gave for refusing `gp`, taken off it (payloads are reused); empty if
// it gave none.
std::string take_refusal(tlm::tlm_generic_payload& gp);

// Writes `bytes` from `data` at `address` through `socket`; `delay` is annotated in and out.
// Throws ModelError naming node `node`'s `what`, the response and the other end's reason if it
// refuses the write.
void post_write(tlm::tlm_initiator_socket<>& socket, const char* what, unsigned node,
                std::uint64_t address, const void* data, std::size_t bytes,
                sc_core::sc_time& delay);

}  // namespace angara
