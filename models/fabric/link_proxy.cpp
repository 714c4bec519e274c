#include "models/fabric/link_proxy.h"

#include <fmt/format.h>

#include "models/core/model_error.h"

namespace angara {
namespace {

// An effect from another rank must land after the window that has just ended (now).
void check_lands_later(const std::string& what, const char* effect, Cycle at, Cycle now) {
  if (at > now) return;
  model_error(report_id::kLookahead,
              fmt::format("cut link {}: {} for cycle {} arrived at the end of a window at cycle "
                          "{}: what crosses ranks must land after the window it was sent in "
                          "(the window is longer than the link's latency plus one flit)",
                          what, effect, at, now));
}

}  // namespace

LinkTx::LinkTx(const sc_core::sc_module_name& name, CutLinkEnd end)
    : sc_core::sc_module(name), in("in"), m_end(std::move(end)) {
  in.register_nb_transport_fw(this, &LinkTx::nb_transport_fw);
}

tlm::tlm_sync_enum LinkTx::nb_transport_fw(int /*port*/, FabricPayload& payload,
                                           tlm::tlm_phase& phase, sc_core::sc_time& /*delay*/) {
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the forward phase must be BEGIN_REQ").c_str());
  }
  m_end.post.post_packet(m_end.link, *payload.packet);
  m_end.pool.release(payload.packet);  // its copy goes on at the other rank
  return tlm::TLM_ACCEPTED;
}

void LinkTx::give_credit(Credit credit, Cycle at) {
  check_lands_later(m_end.what, "a credit", at, m_end.clock.now());
  FabricPayload payload{nullptr, credit};
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = m_end.clock.until(at);
  in[0]->nb_transport_bw(payload, phase, delay);
}

LinkRx::LinkRx(const sc_core::sc_module_name& name, CutLinkEnd end)
    : sc_core::sc_module(name), out("out"), m_end(std::move(end)) {
  out.register_nb_transport_bw(this, &LinkRx::nb_transport_bw);
}

void LinkRx::deliver(const Packet& packet) {
  check_lands_later(m_end.what, "a packet's head", packet.head_at, m_end.clock.now());
  Packet* copy = m_end.pool.acquire();
  *copy = packet;
  FabricPayload payload{copy, {}};
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = m_end.clock.until(packet.head_at);
  out[0]->nb_transport_fw(payload, phase, delay);
}

tlm::tlm_sync_enum LinkRx::nb_transport_bw(int /*port*/, FabricPayload& payload,
                                           tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::END_REQ) {
    SC_REPORT_ERROR(report_id::kProtocol,
                    (std::string(name()) + ": the backward phase must be END_REQ").c_str());
  }
  m_end.post.post_credit(m_end.link, payload.credit, m_end.clock.after(delay));
  return tlm::TLM_ACCEPTED;
}

}  // namespace angara
