#include "models/node/message_channel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "models/node/host.h"

namespace angara {

void Message::copy_to(std::span<std::byte> out) const {
  if (out.size() < bytes) throw std::invalid_argument("Message::copy_to: buffer too small");
  std::size_t at = 0;
  for (int i = 0; i < count; ++i) {
    std::memcpy(out.data() + at, fragments[i].data(), fragments[i].size());
    at += fragments[i].size();
  }
}

MessageChannel::MessageChannel(Host& host, int number) : m_host(host), m_number(number) {}

NetAddr MessageChannel::address() const {
  return {m_host.id(), m_number};
}

std::string MessageChannel::where() const {
  return fmt::format("node {} channel {}", m_host.id(), m_number);
}

Timed<std::size_t> MessageChannel::send(NetAddr dst,
                                        std::span<const std::span<const std::byte>> iov) {
  const NodeParams& p = m_host.params();
  if (dst.node >= static_cast<NodeId>(m_host.nodes()) || dst.channel < 0 ||
      dst.channel >= p.channels) {
    throw MessageError(
        fmt::format("{}: send to node {} channel {}: no such address (nodes 0..{}, "
                    "channels 0..{})",
                    where(), dst.node, dst.channel, m_host.nodes() - 1, p.channels - 1));
  }
  CpuCore& cpu = m_host.core();
  const Cycle start = cpu.local_time() + m_host.send_call_cycles();
  // Summed only as far as one message goes: a long iovec (an allgather's blocks) is sent as
  // many messages, and summing all of it for each would make that quadratic.
  const auto most = static_cast<std::size_t>(p.max_message_bytes);
  std::size_t total = 0;
  for (auto piece = iov.begin(); piece != iov.end() && total < most; ++piece) {
    total += piece->size();
  }
  const std::size_t bytes = m_host.send_size(total, start);
  // A failed call costs at least a cycle, so that a polling loop moves on in time.
  if (bytes == 0) return {cpu.compute(std::max<Cycle>(1, start - cpu.local_time())), 0};

  host_protocol::SendHeader header;
  header.set_dst_node(dst.node);
  header.dst_channel = static_cast<std::uint16_t>(dst.channel);
  header.src_channel = static_cast<std::uint16_t>(m_number);
  header.bytes = static_cast<std::uint32_t>(bytes);
  if (m_payload == Payload::TimingOnly) header.flags = host_protocol::kTimingOnly;
  const Cycle done = m_host.send(header, iov, start);
  return {cpu.compute(done - cpu.local_time()), bytes};
}

CpuCore::PollAwaiter<MessageChannel::RecvPoll> MessageChannel::recv() {
  return m_host.core().poll(RecvPoll{*this});
}

std::pair<std::optional<Message>, Cycle> MessageChannel::take() {
  CpuCore& cpu = m_host.core();
  const Cycle at = cpu.local_time() + m_host.recv_call_cycles();
  const auto record = m_host.take_record(m_number, at);
  if (!record) return {std::nullopt, std::max(at, cpu.local_time() + 1)};
  const auto ring_bytes = static_cast<std::size_t>(m_host.params().rx_ring_bytes);
  const std::byte* ring = m_host.ring(m_number);
  Message message;
  message.from = {record->src_node, record->src_channel};
  message.bytes = record->bytes;
  const std::size_t first = std::min<std::size_t>(record->bytes, ring_bytes - record->offset);
  if (m_payload == Payload::Values) {
    message.fragments[message.count++] = {ring + record->offset, first};
    if (first < record->bytes) message.fragments[message.count++] = {ring, record->bytes - first};
  }
  m_outstanding.push_back((record->bytes + 15) / 16 * 16);
  m_bytes_received += record->bytes;
  return {message, at};
}

CpuCore::ComputeAwaiter MessageChannel::recv_complete() {
  if (m_outstanding.empty()) {
    throw MessageError(
        fmt::format("{}: recv_complete without a received message to release", where()));
  }
  m_released += m_outstanding.front();
  m_outstanding.pop_front();
  CpuCore& cpu = m_host.core();
  const Cycle done =
      m_host.store(host_protocol::kRxReleased + 8 * static_cast<std::uint64_t>(m_number),
                   &m_released, sizeof m_released, cpu.local_time());
  return cpu.compute(done - cpu.local_time());
}

CpuCore::SignalAwaiter MessageChannel::readable() {
  return m_host.core().wait(m_host.readable(m_number));
}

CpuCore::SignalAwaiter MessageChannel::writable() {
  return m_host.core().wait(m_host.writable());
}

Task MessageChannel::room_for(std::size_t bytes) {
  return m_host.room_for(bytes);
}

bool MessageChannel::has_room(std::size_t bytes) const {
  return m_host.has_room(bytes, m_host.core().local_time());
}

bool MessageChannel::arrived() const {
  return m_host.record_visible(m_number, m_host.core().local_time());
}

CpuCore::SignalAwaiter MessageChannel::readable_or_writable() {
  return m_host.core().wait_any(m_host.readable(m_number), m_host.writable());
}

Task send_all(MessageChannel& channel, NetAddr dst, std::span<const std::byte> bytes) {
  co_await send_all(channel, dst, std::vector<std::span<const std::byte>>(1, bytes));
}

Unsent::Unsent(std::vector<std::span<const std::byte>> iov) : m_iov(std::move(iov)) {
  std::erase_if(m_iov, [](const auto& piece) { return piece.empty(); });
  for (const auto& piece : m_iov) m_bytes += piece.size();
}

void Unsent::drop(std::size_t sent) {
  m_bytes -= sent;
  while (sent > 0) {
    auto& front = m_iov[m_front];
    const std::size_t take = std::min(sent, front.size());
    front = front.subspan(take);
    sent -= take;
    if (front.empty()) ++m_front;
  }
}

Task send_all(MessageChannel& channel, NetAddr dst, std::vector<std::span<const std::byte>> iov) {
  Unsent unsent(std::move(iov));
  while (!unsent.empty()) {
    co_await channel.room_for(unsent.bytes());
    unsent.drop(co_await channel.send(dst, unsent.iov()));
  }
}

Task receive_copy(MessageChannel& channel, std::vector<std::byte>& out, NetAddr* from) {
  for (;;) {
    if (auto message = co_await channel.recv()) {
      out.resize(message->bytes);
      message->copy_to(out);
      if (from != nullptr) *from = message->from;
      co_await channel.recv_complete();
      co_return;
    }
    co_await channel.readable();
  }
}

}  // namespace angara
