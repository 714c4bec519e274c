#include "models/pcie/pcie_endpoint.h"

#include <fmt/format.h>

#include "models/core/collective_format.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

PcieEndpoint::PcieEndpoint(const sc_core::sc_module_name& name, NodeId id, const PcieShared& shared,
                           const FabricClock& clock)
    : sc_core::sc_module(name),
      host("host"),
      dma("dma"),
      m_id(id),
      m_shared(shared),
      m_tx(id, shared, clock, dma),
      m_rx(id, shared, clock, dma),
      m_window(id, shared, m_tx, m_rx) {
  // The window is the adapter's end of the host link both ways: the host's stores come in
  // through it, the DMA writes' backward path goes to it.
  host.bind(m_window);
  dma.bind(m_window);
  SC_HAS_PROCESS(PcieEndpoint);
  SC_METHOD(process);
  sensitive << m_rx.alarm_event();
  dont_initialize();
}

void PcieEndpoint::receive(const Packet& packet) {
  switch (packet.header.kind) {
    case PacketKind::Message:
      m_rx.take_message(packet);
      return;
    case PacketKind::ReduceReport:  // the router's report of completed reduces, per tree
      m_tx.credit(unpack_report(packet));
      return;
    case PacketKind::Broadcast:
    case PacketKind::ReduceResult:
    case PacketKind::AllreduceResult:
      m_rx.land_collective(packet);
      return;
    default:
      model_error(report_id::kNode,
                  fmt::format("node {}: the PCIe endpoint cannot take packet #{} of kind {}", m_id,
                              packet.header.high_word, static_cast<int>(packet.header.kind)));
  }
}

}  // namespace angara
