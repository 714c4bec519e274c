#include "models/endpoint/user_port.h"

#include <fmt/format.h>

#include "models/core/model_error.h"
#include "models/endpoint/message_extension.h"

namespace angara {

UserPort::UserPort(const sc_core::sc_module_name& name, NodeId id,
                   const std::vector<bool>& reachable, const FabricClock& clock,
                   bool approximately_timed)
    : sc_core::sc_module(name),
      UserPortCore(id, reachable),
      in("in"),
      out("out"),
      m_clock(clock),
      m_at(approximately_timed) {
  in.register_b_transport(this, &UserPort::b_transport);
  SC_HAS_PROCESS(UserPort);
  SC_THREAD(hand_on);
}

// A posted write: the message is queued at the node and the call returns at once with the
// delay untouched. A mistake is answered with the base protocol's error responses.
void UserPort::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  if (payload.get_command() != tlm::TLM_WRITE_COMMAND) {
    payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (payload.get_byte_enable_ptr() != nullptr) {
    payload.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  const std::size_t length = payload.get_data_length();
  if (payload.get_streaming_width() < length) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (const char* why = refusal(payload.get_address(), length)) {
    SC_REPORT_WARNING(report_id::kUserPort,
                      fmt::format("{}: message of {} bytes for node {} refused: {}", name(), length,
                                  payload.get_address(), why)
                          .c_str());
    payload.set_response_status(length == 0 || length > kMaxMessageBytes
                                    ? tlm::TLM_BURST_ERROR_RESPONSE
                                    : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // Created at the first cycle that starts at or after the initiator's local time.
  send(static_cast<NodeId>(payload.get_address()), payload.get_data_ptr(), length,
       m_clock.at_or_after(delay));
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  if (m_wake) m_wake();
}

void UserPort::take(const Packet& packet) {
  receive(packet, m_whole);
  if (m_whole.empty()) return;
  for (UserMessage& m : m_whole) m_ready.push({std::move(m), m_order++});
  m_whole.clear();
  m_became_ready.notify(sc_core::SC_ZERO_TIME);
}

// One thread, so the user's target may wait inside b_transport (the base protocol allows it);
// a target that waits holds back the messages after it, not the network.
void UserPort::hand_on() {
  for (;;) {
    if (m_ready.empty()) {
      sc_core::wait(m_became_ready);
      continue;
    }
    const sc_core::sc_time at =
        m_clock.period() * static_cast<double>(m_ready.top().message.delivered);
    const sc_core::sc_time& now = sc_core::sc_time_stamp();
    if (m_at && at > now) {
      sc_core::wait(at - now, m_became_ready);  // an earlier one may become whole meanwhile
      continue;
    }
    UserMessage m = m_ready.top().message;
    m_ready.pop();
    tlm::tlm_generic_payload payload;
    payload.set_command(tlm::TLM_WRITE_COMMAND);
    payload.set_address(m.src);
    payload.set_data_ptr(m.bytes.data());
    payload.set_data_length(static_cast<unsigned>(m.bytes.size()));
    payload.set_streaming_width(static_cast<unsigned>(m.bytes.size()));
    payload.set_byte_enable_ptr(nullptr);
    payload.set_dmi_allowed(false);
    payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    auto* extension = new MessageExtension;  // the payload frees it
    extension->src = m.src;
    extension->dst = m.dst;
    extension->created = m.created;
    extension->delivered = m.delivered;
    extension->packets = m.packets;
    payload.set_extension(extension);
    sc_core::sc_time delay = at > now ? at - now : sc_core::SC_ZERO_TIME;
    out->b_transport(payload, delay);
    // A message the target refused is lost: a failure, as a packet lost in the fabric is.
    if (payload.is_response_error()) {
      model_error(report_id::kUserPort,
                  fmt::format("{}: the user's target answered {} to a message from node {}", name(),
                              payload.get_response_string(), m.src));
    }
    ++m_handed_on;
  }
}

}  // namespace angara
