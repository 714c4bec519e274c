#include "models/node/host.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/core/collective_format.h"
#include "models/core/packet_ledger.h"
#include "models/node/message_channel.h"

namespace angara {

Host::Host(const sc_core::sc_module_name& name, NodeId id, int nodes, const NodeParams& params,
           double clock_mhz, const FabricClock& clock, Cycle quantum)
    : CpuModule(name, quantum, params.gflops * 1000.0 / clock_mhz, clock),
      pcie("pcie"),
      memory("memory"),
      m_id(id),
      m_nodes(nodes),
      m_params(params),
      m_send_call(cycles_for_ns(params.send_overhead_ns, clock_mhz)),
      m_recv_call(cycles_for_ns(params.recv_overhead_ns, clock_mhz)),
      m_rings(static_cast<std::size_t>(params.channels)),
      m_records(m_rings.size()),
      m_readable(m_rings.size()),
      m_landed(2 * kMaxTrees),
      m_results(kMaxTrees) {
  pcie.bind(*this);
  memory.bind(*this);
  for (int c = 0; c < params.channels; ++c) {
    m_channels.push_back(std::make_unique<MessageChannel>(*this, c));
  }
}

Host::~Host() = default;

MessageChannel& Host::channel(int number) {
  if (number < 0 || number >= static_cast<int>(m_channels.size())) {
    throw MessageError(fmt::format("node {}: no channel {} (node.channels = {})", m_id, number,
                                   m_channels.size()));
  }
  return *m_channels[static_cast<std::size_t>(number)];
}

std::optional<host_protocol::MessageRecord> Host::take_record(int channel, Cycle at) {
  auto& records = m_records[channel];
  if (records.empty() || records.front().visible > at) return std::nullopt;
  const auto record = records.front().record;
  records.pop_front();
  return record;
}

std::uint64_t Host::tx_free(Cycle at) {
  return static_cast<std::uint64_t>(m_params.tx_buffer_bytes) - (m_tx_accepted - m_tx_sent.at(at));
}

std::size_t Host::send_size(std::size_t wanted, Cycle at) {
  return std::min<std::uint64_t>(
      {wanted, static_cast<std::uint64_t>(m_params.max_message_bytes), tx_free(at)});
}

bool Host::has_room(std::size_t bytes, Cycle at) {
  return tx_free(at) >= std::min(bytes, static_cast<std::size_t>(m_params.max_message_bytes));
}

Task Host::room_for(std::size_t bytes) {
  while (!has_room(bytes, core().local_time())) co_await core().wait(writable());
}

CpuSignal& Host::readable(int channel) {
  if (!m_records[channel].empty()) m_readable[channel].notify(m_records[channel].front().visible);
  return m_readable[channel];
}

CpuSignal& Host::writable() {
  return m_tx_sent.next();
}

void Host::VisibleCount::write(Cycle visible, std::uint64_t value, Cycle written) {
  // What is visible by now is kept as one value: a program reads at its own clock, never behind
  // the kernel's, and a count it reads only later (a tree it waits on after another) would
  // otherwise keep every landing until then.
  at(written);
  m_pending.push_back({visible, value});
  m_signal.notify(visible, written);
}

std::uint64_t Host::VisibleCount::at(Cycle when) {
  while (!m_pending.empty() && m_pending.front().visible <= when) {
    m_seen = std::max(m_seen, m_pending.front().value);
    m_pending.pop_front();
  }
  return m_seen;
}

CpuSignal& Host::VisibleCount::next() {
  if (!m_pending.empty()) m_signal.notify(m_pending.front().visible);
  return m_signal;
}

Cycle Host::store(std::uint64_t address, const void* data, std::size_t bytes, Cycle at) {
  sc_core::sc_time delay = clock().until(at);
  post_write(pcie, "store into the PCIe window", m_id, address, data, bytes, delay);
  return clock().at_or_after(delay);
}

Cycle Host::send(const host_protocol::SendHeader& header,
                 std::span<const std::span<const std::byte>> iov, Cycle at) {
  // A timing-only send writes its header alone: the endpoint times bytes it is not given.
  const bool timing_only = (header.flags & host_protocol::kTimingOnly) != 0;
  // One buffer for every host (no allocation per send; a store never leads to another send).
  static std::vector<std::byte> staged;
  staged.resize(sizeof header + (timing_only ? 0 : header.bytes));
  std::memcpy(staged.data(), &header, sizeof header);
  std::size_t filled = sizeof header;
  // Only as far as the message goes (the iovec may hold much more); nothing when timing-only.
  for (auto piece = iov.begin(); piece != iov.end() && filled < staged.size(); ++piece) {
    const std::size_t take = std::min(piece->size(), staged.size() - filled);
    std::memcpy(staged.data() + filled, piece->data(), take);
    filled += take;
  }
  const bool by_dma = header.bytes > static_cast<std::uint32_t>(m_params.pio_max_bytes);
  const Cycle done = store(by_dma ? host_protocol::kDmaSend : host_protocol::kPioSend,
                           staged.data(), staged.size(), at);
  m_tx_accepted += header.bytes;
  return done;
}

Host::VisibleCount& Host::landed_count(int tree, bool results) {
  if (tree < 0 || tree >= kMaxTrees) {
    throw MessageError(
        fmt::format("node {}: no tree {} (TreeIds 0..{})", m_id, tree, kMaxTrees - 1));
  }
  auto& count = m_landed[2 * static_cast<std::size_t>(tree) + (results ? 1 : 0)];
  if (!count) count = std::make_unique<VisibleCount>();
  return *count;
}

std::uint64_t Host::landed(int tree, bool results, Cycle at) {
  return landed_count(tree, results).at(at);
}

CpuSignal& Host::landing(int tree, bool results) {
  return landed_count(tree, results).next();
}

std::byte* Host::area_at(std::uint64_t offset, std::size_t bytes) {
  if (m_collective_area.size() < offset + bytes) m_collective_area.resize(offset + bytes);
  return m_collective_area.data() + offset;
}

std::byte* Host::result_slot(int tree, int reduce_id) {
  auto& slots = m_results.at(static_cast<std::size_t>(tree));
  if (!slots)
    slots = std::make_unique<std::byte[]>(host_protocol::kResultSlotBytes * kReducesPerTree);
  return slots.get() + static_cast<std::size_t>(reduce_id) * host_protocol::kResultSlotBytes;
}

// DMA writes from the endpoint: visible to the program from the cycle they have landed.
void Host::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  using namespace host_protocol;
  const Cycle visible = clock().at_or_after(delay);
  const std::uint64_t address = gp.get_address();
  const unsigned char* data = gp.get_data_ptr();
  const std::size_t length = gp.get_data_length();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (gp.get_command() != tlm::TLM_WRITE_COMMAND) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  } else if (address == kTxSent && length == sizeof(std::uint64_t)) {
    std::uint64_t sent = 0;
    std::memcpy(&sent, data, sizeof sent);
    m_tx_sent.write(visible, sent, clock().now());
  } else if (address >= kRecord && address < kRecord + m_records.size() &&
             length == sizeof(MessageRecord)) {
    const auto channel = static_cast<std::size_t>(address - kRecord);
    Received& received = m_records[channel].emplace_back();
    received.visible = visible;
    std::memcpy(&received.record, data, sizeof received.record);
    m_readable[channel].notify(visible, clock().now());
  } else if (length == sizeof(std::uint64_t) &&
             ((address >= kBroadcastCount && address < kBroadcastCount + 8 * kMaxTrees) ||
              (address >= kResultCount && address < kResultCount + 8 * kMaxTrees))) {
    const bool results = address >= kResultCount;
    std::uint64_t landed = 0;
    std::memcpy(&landed, data, sizeof landed);
    landed_count(static_cast<int>((address - (results ? kResultCount : kBroadcastCount)) / 8),
                 results)
        .write(visible, landed, clock().now());
  } else if (address >= kReduceResult &&
             address + length <= kReduceResult + kMaxTrees * kReducesPerTree * kResultSlotBytes) {
    const std::uint64_t slot = (address - kReduceResult) / kResultSlotBytes;
    std::memcpy(result_slot(static_cast<int>(slot / kReducesPerTree),
                            static_cast<int>(slot % kReducesPerTree)),
                data, length);
  } else if (address >= kCollectiveArea) {
    std::memcpy(area_at(address - kCollectiveArea, length), data, length);
  } else if (address < kRing || !write_ring(address - kRing, data, length)) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

bool Host::write_ring(std::uint64_t offset, const unsigned char* data, std::size_t bytes) {
  const auto ring_bytes = static_cast<std::uint64_t>(m_params.rx_ring_bytes);
  const std::uint64_t channel = offset / ring_bytes;
  offset %= ring_bytes;
  if (channel >= m_rings.size() || offset + bytes > ring_bytes) return false;
  auto& ring = m_rings[channel];
  if (!ring) ring = std::make_unique_for_overwrite<std::byte[]>(ring_bytes);
  std::memcpy(ring.get() + offset, data, bytes);
  return true;
}

}  // namespace angara
