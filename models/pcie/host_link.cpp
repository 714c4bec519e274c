#include "models/pcie/host_link.h"

#include <fmt/format.h>

#include <deque>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {
namespace {

// Why a write was refused, carried back to the writer in its payload.
class Refusal : public tlm::tlm_extension<Refusal> {
 public:
  explicit Refusal(std::string reason) : m_reason(std::move(reason)) {}
  tlm::tlm_extension_base* clone() const override { return new Refusal(m_reason); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    m_reason = static_cast<const Refusal&>(other).m_reason;
  }
  const std::string& reason() const { return m_reason; }

 private:
  std::string m_reason;
};

}  // namespace

void refuse(tlm::tlm_generic_payload& gp, tlm::tlm_response_status status, std::string reason) {
  gp.set_response_status(status);
  if (tlm::tlm_extension_base* old = gp.set_extension(new Refusal(std::move(reason)))) old->free();
}

std::string take_refusal(tlm::tlm_generic_payload& gp) {
  Refusal* refusal = gp.get_extension<Refusal>();
  if (refusal == nullptr) return {};
  std::string reason = refusal->reason();
  gp.clear_extension(refusal);
  refusal->free();
  return reason;
}

tlm::tlm_sync_enum HostLinkEnd::nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                sc_core::sc_time&) {
  SC_REPORT_ERROR(report_id::kProtocol, "the host's PCIe link takes blocking transport only");
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum HostLinkEnd::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                sc_core::sc_time&) {
  SC_REPORT_ERROR(report_id::kProtocol, "the host's PCIe link takes blocking transport only");
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
    const std::string reason = take_refusal(gp);
    model_error(
        report_id::kNode,
        fmt::format("node {}: {}: write of {} bytes to {:#x} refused: {}{}{}", node, what, bytes,
                    address, gp.get_response_string(), reason.empty() ? "" : ": ", reason));
  }
}

}  // namespace angara
