#pragma once
// What a user port does, without SystemC. Sending: a user's message (bytes for a destination
// node) is cut into Message packets of at most 256 bytes, which the node's endpoint sends in the
// order they were given, as it sends any source's packets. Receiving: each sender's packets are
// put back in the order they were sent (their message tags number them per destination, since
// packets on different VCs may overtake one another) and gathered into whole messages. A packet
// delivered twice, out of its sender's numbering or to another node is a ModelError, so the
// port is its messages' conservation checker.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "models/core/message_tag.h"
#include "models/endpoint/traffic_source.h"

namespace angara {

// A whole message as the receiving port hands it on.
struct UserMessage {
  NodeId src = 0;
  NodeId dst = 0;
  Cycle created = 0;          // the cycle the sending user injected it
  Cycle delivered = 0;        // the cycle its last packet's tail was in this node's endpoint
  std::uint32_t packets = 0;  // packets it travelled in
  std::vector<unsigned char> bytes;
};

class UserPortCore : public TrafficSource {
 public:
  static constexpr std::size_t kPacketBytes = kMaxDataFlits * kFlitBits / 8;  // 256

  // `reachable[n]`: node n has a user port that delivers (known from the end of elaboration),
  // so messages may be sent to it.
  UserPortCore(NodeId id, const std::vector<bool>& reachable);

  NodeId id() const { return m_id; }
  // Why a message of `length` bytes for `dst` cannot be sent, or nullptr if it can.
  const char* refusal(std::uint64_t dst, std::size_t length) const;
  // Queues a message (refusal() said yes) created at cycle `created`; a message is never created
  // before the last one queued here (they leave in the order they were given).
  void send(NodeId dst, const unsigned char* bytes, std::size_t length, Cycle created);

  // TrafficSource: the packets of the messages sent, in order.
  std::optional<PacketRequest> next() override;
  void put_back(const PacketRequest& request) override;
  void fill(Packet& packet, const PacketRequest& request) override;

  // A packet delivered to this node; appends to `whole` the messages it completes (none, or
  // several when it was the one the next ones waited for).
  void receive(const Packet& packet, std::vector<UserMessage>& whole);

  std::uint64_t messages_sent() const { return m_messages_sent; }
  std::uint64_t messages_received() const { return m_messages_received; }
  std::uint64_t packets_sent() const { return m_packets_sent; }

 private:
  struct Outgoing {
    PacketRequest request;
    MessageTag tag;
    std::vector<unsigned char> bytes;  // this packet's share of the message
  };
  struct Piece {
    MessageTag tag;
    Cycle created, tail_at;
    std::vector<unsigned char> bytes;
  };
  // One sender's packets: the next expected, those that came early, the message being gathered.
  struct Stream {
    std::uint32_t expected = 0;
    std::map<std::uint32_t, Piece> early;
    UserMessage message;
    Cycle ready_at = 0;  // messages of a stream are whole in order: the latest tail so far
  };
  void gather(NodeId src, Stream& stream, const Piece& piece, std::vector<UserMessage>& whole);

  NodeId m_id;
  const std::vector<bool>& m_reachable;
  std::deque<Outgoing> m_out;
  std::size_t m_handed = 0;                  // requests of m_out handed to the endpoint
  std::vector<std::uint32_t> m_next_packet;  // [dst]: the next message tag's packet number
  std::map<NodeId, Stream> m_streams;        // by sender
  Cycle m_last_created = 0;
  std::uint32_t m_requests = 0;  // numbers requests, to check fill() meets them in order
  std::uint64_t m_messages_sent = 0, m_messages_received = 0, m_packets_sent = 0;
};

}  // namespace angara
