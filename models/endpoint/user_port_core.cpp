#include "models/endpoint/user_port_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

UserPortCore::UserPortCore(NodeId id, const std::vector<bool>& reachable)
    : m_id(id), m_reachable(reachable), m_next_packet(reachable.size(), 0) {}

const char* UserPortCore::refusal(std::uint64_t dst, std::size_t length) const {
  if (dst >= m_reachable.size()) return "no such node";
  if (dst == m_id) return "a message to the port's own node";
  if (!m_reachable[dst]) return "the destination node has no user port, or its `out` is unbound";
  if (length == 0 || length > kMaxMessageBytes) return "a message is 1 to 65536 bytes";
  return nullptr;
}

void UserPortCore::send(NodeId dst, const unsigned char* bytes, std::size_t length, Cycle created) {
  m_last_created = std::max(m_last_created, created);
  for (std::size_t offset = 0; offset < length; offset += kPacketBytes) {
    const std::size_t share = std::min(kPacketBytes, length - offset);
    Outgoing out;
    out.request.dst = dst;
    out.request.data_flits = static_cast<int>((share * 8 + kFlitBits - 1) / kFlitBits);
    out.request.created = m_last_created;
    out.request.kind = PacketKind::Message;
    out.request.tag = m_requests++;
    out.tag = {m_next_packet[dst]++, 0, 0, static_cast<std::uint32_t>(length)};
    out.bytes.assign(bytes + offset, bytes + offset + share);
    m_out.push_back(std::move(out));
    ++m_packets_sent;
  }
  ++m_messages_sent;
}

std::optional<PacketRequest> UserPortCore::next() {
  if (m_handed == m_out.size()) return std::nullopt;
  return m_out[m_handed++].request;
}

void UserPortCore::put_back(const PacketRequest& request) {
  if (m_handed == 0 || m_out[m_handed - 1].request.tag != request.tag) {
    model_error(report_id::kUserPort,
                fmt::format("user port {}: a request put back out of order", m_id));
  }
  --m_handed;
}

void UserPortCore::fill(Packet& packet, const PacketRequest& request) {
  if (m_handed == 0 || m_out.front().request.tag != request.tag) {
    model_error(report_id::kUserPort,
                fmt::format("user port {}: a packet filled out of order", m_id));
  }
  const Outgoing& out = m_out.front();
  packet.header.set_tag(out.tag);
  packet.data = {};
  std::memcpy(packet.data.data(), out.bytes.data(), out.bytes.size());
  m_out.pop_front();
  --m_handed;
}

void UserPortCore::receive(const Packet& packet, std::vector<UserMessage>& whole) {
  const PacketHeader& h = packet.header;
  if (h.kind != PacketKind::Message || h.dst != m_id) {
    model_error(report_id::kUserPort,
                fmt::format("user port {}: a packet from node {} for node {} arrived here", m_id,
                            h.src, h.dst));
  }
  const MessageTag tag = h.tag();
  Stream& stream = m_streams[h.src];
  Piece piece{tag, packet.created, packet.tail_at, {}};
  const auto* data = reinterpret_cast<const unsigned char*>(packet.data.data());
  piece.bytes.assign(data, data + h.data_flits * kFlitBits / 8);  // gather() trims the padding
  if (tag.packet < stream.expected || stream.early.count(tag.packet) != 0) {
    model_error(report_id::kUserPort,
                fmt::format("user port {}: packet {} from node {} delivered twice", m_id,
                            tag.packet, h.src));
  }
  if (tag.packet != stream.expected) {
    stream.early.emplace(tag.packet, std::move(piece));
    return;
  }
  gather(h.src, stream, piece, whole);
  for (auto it = stream.early.find(stream.expected); it != stream.early.end();
       it = stream.early.find(stream.expected)) {
    gather(h.src, stream, it->second, whole);
    stream.early.erase(it);
  }
}

// The next piece of `stream`'s message, in order; a whole message goes to `whole`.
void UserPortCore::gather(NodeId src, Stream& stream, const Piece& piece,
                          std::vector<UserMessage>& whole) {
  UserMessage& m = stream.message;
  if (m.packets == 0) {
    m.src = src;
    m.created = piece.created;
  }
  const std::size_t wanted = piece.tag.message_bytes - m.bytes.size();
  m.bytes.insert(
      m.bytes.end(), piece.bytes.begin(),
      piece.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(wanted, piece.bytes.size())));
  ++m.packets;
  stream.ready_at = std::max(stream.ready_at, piece.tail_at);
  ++stream.expected;
  if (m.bytes.size() == piece.tag.message_bytes) {
    m.dst = m_id;
    m.delivered = stream.ready_at;
    whole.push_back(std::move(m));
    m = UserMessage{};
    ++m_messages_received;
  }
}

}  // namespace angara
