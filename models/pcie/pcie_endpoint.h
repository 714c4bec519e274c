#pragma once
// PcieEndpoint: a node's network adapter between its host and its router (as in the SKIF-Aurora
// adapter and SkifCh), made of three parts with one job each:
//   HostWindow      the window the host stores into (a TLM-2.0 target: sends, ring releases)
//                   and the adapter's DMA into host memory; it checks what the host asks;
//   TransmitEngine  sends cut into packets, timed over PCIe, handed to the router endpoint
//                   (this module's TrafficSource side), flow-controlled by the send buffer and
//                   the reduce window, paced in LT without buffers;
//   ReceiveEngine   ejected packets put back in order, messages landed in their channels' rings,
//                   collective packets landed in host memory.
// Both PCIe directions are booked on calendars in picoseconds (one-way latency, lanes x rate x
// line code, TLP overhead: PcieTiming).

#include <tlm>

#include <cstdint>
#include <functional>
#include <optional>

#include "models/endpoint/traffic_source.h"
#include "models/pcie/host_window.h"
#include "models/pcie/pcie_shared.h"
#include "models/pcie/receive_engine.h"
#include "models/pcie/transmit_engine.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class PcieEndpoint : public sc_core::sc_module, public TrafficSource {
 public:
  tlm::tlm_target_socket<> host;    // the window the host stores into
  tlm::tlm_initiator_socket<> dma;  // writes into host memory

  PcieEndpoint(const sc_core::sc_module_name& name, NodeId id, const PcieShared& shared,
               const FabricClock& clock);

  // Called when new packets are ready to send (the router endpoint asks next() again).
  void on_new_work(std::function<void()> wake) { m_tx.on_new_work(std::move(wake)); }
  // From now on woken by `calendar` (LT) instead of its own event.
  void wake_on(WakeCalendar& calendar) { m_rx.wake_on(calendar); }
  // A packet ejected to this node; its tail is in the adapter at packet.tail_at.
  void receive(const Packet& packet);
  // Asks the cache for what receive() reads (a packet is on its way here).
  void prefetch_receive() const { m_rx.prefetch(); }
  // LT: a message packet this endpoint sent has been ejected at its destination (the same call
  // chain that injected it).
  void reached(const Packet& packet) { m_tx.reached(packet); }

  // The router endpoint's injection side.
  std::optional<PacketRequest> next() override { return m_tx.next(); }
  void fill(Packet& packet, const PacketRequest& /*request*/) override { m_tx.fill(packet); }
  void put_back(const PacketRequest& request) override { m_tx.put_back(request); }
  void sent(const Packet& packet) override { m_tx.sent(packet); }

  std::uint64_t messages_sent() const { return m_tx.messages_sent(); }
  std::uint64_t messages_received() const { return m_rx.messages_received(); }
  const PcieTiming& pcie() const { return m_shared.pcie; }

 private:
  void process() { m_rx.process(); }  // SC_METHOD (AT): arrivals and releases due now

  NodeId m_id;
  const PcieShared& m_shared;
  TransmitEngine m_tx;
  ReceiveEngine m_rx;
  HostWindow m_window;
};

}  // namespace angara
