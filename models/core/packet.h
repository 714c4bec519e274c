#pragma once
// The network packet of the spec: one 128-bit header flit plus 0..16 data flits (256 bytes max).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "models/core/ids.h"
#include "models/core/message_tag.h"

namespace angara {

// One 128-bit flit, the minimum unit the router moves.
struct Flit {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  constexpr bool operator==(const Flit&) const = default;
};

inline constexpr int kFlitBits = 128;
inline constexpr int kMaxDataFlits = 16;
inline constexpr int kHeaderFlits = 1;
inline constexpr int kMaxPacketFlits = kHeaderFlits + kMaxDataFlits;  // 17 flits on the wire

// What a packet is for. The values are the header's 4-bit kind field.
enum class PacketKind : std::uint8_t {
  Write,
  Read,
  Atomic,
  Broadcast,         // spreading down a tree from its root
  BroadcastRequest,  // a broadcast on its way up to the root, which turns it into a Broadcast
  Reduce,            // a contribution (or partial result) going up a tree
  UpCredit,          // credit block to its children: 8 more reduce results of a tree may go up
  ReduceResult,  // a reduce's result, sent point-to-point from the tree's root to its destination
  Message,       // a piece of a host message (models/pcie): its header carries a MessageTag
  ReduceReport,  // credit block to its processor: completed reduces per tree
  AllreduceResult,  // an allreduce's result, spreading down the tree from its root
};

// Packets of the collective subnet travel on VCUp/VCDown and through the PEGroup.
inline bool is_collective(PacketKind k) {
  return k == PacketKind::Broadcast || k == PacketKind::BroadcastRequest ||
         k == PacketKind::Reduce || k == PacketKind::UpCredit || k == PacketKind::ReduceReport ||
         k == PacketKind::AllreduceResult;
}

// Header fields of the spec's packet, decoded. Field widths are those of encode_header().
struct PacketHeader {
  PacketKind kind = PacketKind::Write;
  NodeId src = 0;               // 16 bits: up to 65536 nodes
  NodeId dst = 0;               // 16 bits
  std::uint8_t tree_id = 0;     // 4 bits: trees 0..15
  std::uint8_t reduce_id = 0;   // 4 bits: reduces 0..15 in flight per tree
  std::uint8_t op = 0;          // 4 bits: reduction operation
  std::uint8_t data_flits = 0;  // 5 bits: 0..16
  VcId vc = 0;                  // 3 bits: virtual channel in the current buffer
  // 64 bits: the header flit's high word. What it holds depends on the kind, so it is read and
  // written through the accessor of that meaning.
  std::uint64_t high_word = 0;

  // Any packet an endpoint or PEGroup makes, a Message excepted: unique per run.
  std::uint64_t sequence() const { return high_word; }
  void set_sequence(std::uint64_t s) { high_word = s; }
  // A Message: how the receiving endpoint files it.
  MessageTag tag() const { return decode_tag(high_word); }
  void set_tag(const MessageTag& t) { high_word = encode_tag(t); }
  // A Broadcast from a host: where its bytes land in every receiver's collective area, bytes.
  std::uint64_t landing_offset() const { return high_word; }
  void set_landing_offset(std::uint64_t bytes) { high_word = bytes; }

  constexpr bool operator==(const PacketHeader&) const = default;
};

// Packs the header into the 128-bit header flit, and back.
Flit encode_header(const PacketHeader& header);
PacketHeader decode_header(const Flit& flit);

// A packet in flight. One object carries the packet through the whole network (one TLM
// transaction per packet); the header and `data` are wire content, the fields between them
// model bookkeeping.
struct Packet {
  PacketHeader header;

  Cycle created = 0;       // cycle the source generated it (latency is measured from here)
  Cycle head_at = 0;       // cycle its head flit is wholly in the current buffer
  Cycle tail_at = 0;       // cycle its tail flit is wholly in the current buffer
  std::uint16_t hops = 0;  // router-to-router links crossed so far
  // Around failed links and nodes: where its first leg ends, set where it is injected (the
  // intermediate node a detoured packet's header names; models/routing/fault_routing.h).
  NodeId via = 0;
  // LT, a timing-only send: this transaction stands for `train` back-to-back packets of the same
  // message, each with this header; it holds every channel and block as long as all of them,
  // and `data` carries no values (sim.train_packets).
  std::uint32_t train = 1;
  bool timing_only = false;  // from a timing-only send: its data's values are not carried
  // Wormhole: 1 + its index in the machine's worms (models/router/worm.h) while it spans
  // routers, else 0.
  std::uint32_t worm = 0;
  // The message it is a part of, for measurement where it arrives: its packets, this one's
  // place among them, and the tag of the request it was made from (PacketRequest).
  std::uint32_t message_packets = 1;
  std::uint32_t message_index = 0;
  std::uint32_t request_tag = 0;

  // Last: a timing-only packet's copies leave it out (copy_packet()).
  std::array<Flit, kMaxDataFlits> data{};

  int wire_flits() const { return static_cast<int>(train) * packet_flits(); }
  int packet_flits() const { return kHeaderFlits + header.data_flits; }  // one of a train's
};

static_assert(std::is_trivially_copyable_v<Packet> && std::is_standard_layout_v<Packet>);

// Copies `from` into `to`, its data flits only if they carry values: a timing-only packet's are
// most of its bytes, and on a large machine each of their lines is one more miss.
inline void copy_packet(Packet& to, const Packet& from) {
  if (from.timing_only) {
    std::memcpy(static_cast<void*>(&to), &from, offsetof(Packet, data));
  } else {
    to = from;
  }
}

// Fills the data flits with a pattern derived from the sequence number, so a sink can check
// that the payload arrived intact without keeping a copy.
void fill_check_pattern(Packet& packet);
bool check_pattern_intact(const Packet& packet);

}  // namespace angara
