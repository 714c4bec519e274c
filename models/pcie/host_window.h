#pragma once
// HostWindow: the adapter's end of the host's PCIe link. Its target side is the window the host
// stores into (host_protocol.h): it decodes the address, checks the host's send headers and ring
// releases against the machine's rules, times the stores on the link toward the adapter (ps) and
// hands them on: sends to the transmit engine, releases to the receive engine. A store that
// breaks a rule is refused with a TLM error response and a reason naming the node, the channel
// and the rule (refuse(), host_link.h). Its initiator side is the adapter's DMA into host memory,
// which speaks blocking transport only.

#include <tlm>

#include <cstddef>
#include <cstdint>
#include <string>

#include "models/pcie/host_link.h"
#include "models/pcie/host_protocol.h"
#include "models/pcie/pcie_shared.h"
#include "models/timing/link_calendar.h"

namespace angara {

class ReceiveEngine;
class TransmitEngine;

class HostWindow : public HostLinkEnd {
 public:
  HostWindow(NodeId id, const PcieShared& shared, TransmitEngine& tx, ReceiveEngine& rx);

  // A store of the host into the window.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;

 private:
  // The rule a send breaks, written out; empty if it breaks none. `stored`: bytes of the store.
  std::string broken_rule(const host_protocol::SendHeader& header, std::size_t stored) const;
  // Why a store at `address` that is neither a whole send nor a ring release was refused.
  std::string unknown_store(std::uint64_t address, std::size_t stored) const;
  // The stores of a send from `at_ps` (the header, and the bytes unless `by_dma`); returns when
  // the CPU is done storing, ps.
  std::uint64_t store_send(const host_protocol::SendHeader& header, const std::byte* data,
                           bool by_dma, std::uint64_t at_ps);
  // A ring release's store from `at_ps`; returns when it is done, ps.
  std::uint64_t store_release(int channel, std::uint64_t released, std::uint64_t at_ps);

  NodeId m_id;
  const PcieShared& m_shared;
  TransmitEngine& m_tx;
  ReceiveEngine& m_rx;
  LinkCalendar m_to_adapter;  // PCIe toward the adapter, in ps
};

}  // namespace angara
