#include "models/pcie/host_window.h"

#include <fmt/format.h>

#include <cstring>

#include "models/core/collective_format.h"
#include "models/core/message_tag.h"
#include "models/pcie/receive_engine.h"
#include "models/pcie/transmit_engine.h"

namespace angara {

using namespace host_protocol;
using pcie_units::now_ps;

HostWindow::HostWindow(NodeId id, const PcieShared& shared, TransmitEngine& tx, ReceiveEngine& rx)
    : m_id(id), m_shared(shared), m_tx(tx), m_rx(rx) {}

void HostWindow::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const std::uint64_t address = gp.get_address();
  const std::size_t stored = gp.get_data_length();
  if (gp.get_command() != tlm::TLM_WRITE_COMMAND) {
    refuse(gp, tlm::TLM_COMMAND_ERROR_RESPONSE,
           fmt::format("node {}: read of {} bytes at {:#x}: the PCIe window is write-only", m_id,
                       stored, address));
    return;
  }
  const std::uint64_t at = now_ps() + delay.value();
  std::uint64_t done = at;
  const auto channels = static_cast<std::uint64_t>(m_shared.node.channels);
  if ((address == kPioSend || address == kDmaSend) && stored >= sizeof(SendHeader)) {
    SendHeader header;
    std::memcpy(&header, gp.get_data_ptr(), sizeof header);
    if (std::string rule = broken_rule(header, stored); !rule.empty()) {
      refuse(gp, tlm::TLM_GENERIC_ERROR_RESPONSE,
             fmt::format("node {} channel {}: {}", m_id, header.src_channel, rule));
      return;
    }
    const auto* data = reinterpret_cast<const std::byte*>(gp.get_data_ptr()) + sizeof header;
    done = store_send(header, data, address == kDmaSend, at);
  } else if (address >= kRxReleased && address < kRxReleased + 8 * channels && address % 8 == 0 &&
             stored == 8) {
    std::uint64_t released = 0;
    std::memcpy(&released, gp.get_data_ptr(), sizeof released);
    done = store_release(static_cast<int>((address - kRxReleased) / 8), released, at);
  } else {
    refuse(gp, tlm::TLM_ADDRESS_ERROR_RESPONSE, unknown_store(address, stored));
    return;
  }
  delay = sc_core::sc_time::from_value(done - now_ps());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::string HostWindow::broken_rule(const SendHeader& header, std::size_t stored) const {
  const bool timing_only = (header.flags & kTimingOnly) != 0;
  const NodeParams& node = m_shared.node;
  if (header.kind > SendKind::Reduce) {
    return fmt::format("send of kind {}: the kinds are 0 (message), 1 (broadcast) and 2 (reduce)",
                       static_cast<int>(header.kind));
  }
  if ((header.flags & ~kTimingOnly) != 0) {
    return fmt::format("send with flags {:#x}: the only flag is {} (timing-only)", header.flags,
                       kTimingOnly);
  }
  if (header.kind == SendKind::Reduce && timing_only) {
    return "timing-only reduce: a reduce carries its values (timing-only is for messages and "
           "broadcasts)";
  }
  if (header.kind != SendKind::Broadcast &&
      header.dst_node() >= static_cast<std::uint32_t>(m_shared.nodes)) {
    return fmt::format("send to node {}: the machine has nodes 0..{}", header.dst_node(),
                       m_shared.nodes - 1);
  }
  if (header.kind == SendKind::Message &&
      header.dst_channel >= static_cast<std::uint32_t>(node.channels)) {
    return fmt::format("send to channel {} of node {}: node.channels = {}", header.dst_channel,
                       header.dst_node(), node.channels);
  }
  if (header.kind != SendKind::Message && header.tree >= kMaxTrees) {
    return fmt::format("collective send on tree {}: TreeIds are 0..{}", header.tree, kMaxTrees - 1);
  }
  if (header.bytes == 0) return "send of 0 bytes: a send carries at least 1 byte";
  if (header.bytes > static_cast<std::uint32_t>(node.max_message_bytes)) {
    return fmt::format("send of {} bytes exceeds node.max_message_bytes = {}", header.bytes,
                       node.max_message_bytes);
  }
  if (header.kind == SendKind::Reduce && header.bytes > pcie_units::kPacketBytes) {
    return fmt::format("reduce of {} bytes exceeds one packet's {} bytes", header.bytes,
                       pcie_units::kPacketBytes);
  }
  const std::size_t expected = sizeof header + (timing_only ? 0 : header.bytes);
  if (stored != expected) {
    return fmt::format(
        "send of {} bytes stored as {} bytes: a {}send is its {}-byte header{}, {} "
        "bytes",
        header.bytes, stored, timing_only ? "timing-only " : "", sizeof header,
        timing_only ? " alone" : " and its bytes", expected);
  }
  if (m_tx.buffered() + header.bytes > static_cast<std::uint64_t>(node.tx_buffer_bytes)) {
    return fmt::format(
        "send of {} bytes with {} bytes in the send buffer overflows "
        "node.tx_buffer_bytes = {} (wait for the sent count)",
        header.bytes, m_tx.buffered(), node.tx_buffer_bytes);
  }
  return {};
}

std::string HostWindow::unknown_store(std::uint64_t address, std::size_t stored) const {
  if (address == kPioSend || address == kDmaSend) {
    return fmt::format("node {}: send of {} bytes at {:#x}: shorter than its {}-byte header", m_id,
                       stored, address, sizeof(SendHeader));
  }
  if (address >= kRxReleased && address < kRxReleased + 8 * std::uint64_t{kMaxChannels}) {
    const std::uint64_t channel = (address - kRxReleased) / 8;
    if (channel >= static_cast<std::uint64_t>(m_shared.node.channels)) {
      return fmt::format("node {} channel {}: ring release of a channel beyond node.channels = {}",
                         m_id, channel, m_shared.node.channels);
    }
    return fmt::format(
        "node {} channel {}: ring release of {} bytes at {:#x}: a release is one "
        "8-byte count at {:#x}",
        m_id, channel, stored, address, kRxReleased + 8 * channel);
  }
  return fmt::format(
      "node {}: store of {} bytes at {:#x}: no such window address (sends at {:#x} "
      "and {:#x}, ring releases at {:#x} + 8 * channel)",
      m_id, stored, address, kPioSend, kDmaSend, kRxReleased);
}

std::uint64_t HostWindow::store_send(const SendHeader& header, const std::byte* data, bool by_dma,
                                     std::uint64_t at) {
  const std::uint64_t stored = sizeof header + (by_dma ? 0 : header.bytes);
  const std::uint64_t length = m_shared.pcie.serialization_ps(stored);
  const std::uint64_t start = m_to_adapter.book(at, length, now_ps());
  m_tx.send(header, data, by_dma, start);
  return start + length;
}

std::uint64_t HostWindow::store_release(int channel, std::uint64_t released, std::uint64_t at) {
  const std::uint64_t length = m_shared.pcie.serialization_ps(sizeof released);
  const std::uint64_t done = m_to_adapter.book(at, length, now_ps()) + length;
  m_rx.release(channel, released, done + m_shared.latency_ps);
  return done;
}

}  // namespace angara
