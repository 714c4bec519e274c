#pragma once
// What the host and its PCIe endpoint say to each other, as the addresses and records of
// tlm_generic_payload writes (the host side is memory-mapped, usable from any TLM-2.0 platform).
//   host -> endpoint (stores into the endpoint's window, posted):
//     kPioSend     a SendHeader and the message's bytes, stored by the CPU itself;
//     kDmaSend     a SendHeader only (a doorbell); the endpoint fetches the bytes from host memory
//                  by DMA. The model takes the bytes from the same write and times the DMA read;
//     kRxReleased  + 8 * channel: a u64, bytes of that channel's receive ring released so far.
//   A send whose header has kind kBroadcast or kReduce goes to the collective subnet instead of
//   a node: a broadcast on tree `tree` whose bytes land at 16 * landing_flits()
//   in every receiver's collective area; a reduce packet of `op` (ReduceOp encoding) on tree
//   `tree`, its result to node dst_node() (reduce) or to every member (allreduce).
//   A send with kTimingOnly in its flags (messages and broadcasts) is the header alone: its
//   header.bytes are timed like any other send's, but their values are not carried: nothing is
//   written where they land except the message record or the count. Programs whose data's values do
//   not matter (SpMV's y) send this way, so that a big machine does not hold every node's copy; in
//   LT its packets go as trains (sim.train_packets, models/core/packet.h). endpoint -> host (DMA
//   writes into host memory):
//     kTxSent      a u64, bytes of messages the endpoint has put on the network so far;
//     kRecord      + channel: a MessageRecord, once the message's bytes are in the ring;
//     kRing        + channel * ring_bytes + offset: a received message's bytes.
//     kCollectiveArea + offset: a received broadcast packet's bytes (one-sided: the program
//                  takes no part in receiving them);
//     kReduceResult + (tree * 16 + reduce id) * kResultSlotBytes: a reduce result's bytes;
//     kBroadcastCount + 8 * tree: a u64, broadcast packets of that tree landed so far;
//     kResultCount + 8 * tree: a u64, reduce results of that tree landed so far.

#include <cstdint>

namespace angara::host_protocol {

inline constexpr std::uint64_t kPioSend = 0x0;
inline constexpr std::uint64_t kDmaSend = 0x1000;
inline constexpr std::uint64_t kRxReleased = 0x2000;

inline constexpr std::uint64_t kTxSent = 0x0;
inline constexpr std::uint64_t kRecord = 0x1000;
inline constexpr std::uint64_t kBroadcastCount = 0x2000;
inline constexpr std::uint64_t kResultCount = 0x3000;
inline constexpr std::uint64_t kReduceResult = 0x10000;
inline constexpr std::uint64_t kRing = std::uint64_t{1} << 32;
inline constexpr std::uint64_t kCollectiveArea = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kResultSlotBytes = 256;  // one packet's data

enum class SendKind : std::uint8_t { Message = 0, Broadcast = 1, Reduce = 2 };
inline constexpr std::uint8_t kTimingOnly = 1;  // SendHeader::flags

// Leads every send: 16 bytes, one flit.
struct SendHeader {
  std::uint32_t target = 0;  // through the accessor of what the send is: see below
  std::uint16_t dst_channel = 0;
  std::uint16_t src_channel = 0;
  std::uint32_t bytes = 0;  // of the message, after the header
  SendKind kind = SendKind::Message;
  std::uint8_t tree = 0;  // collective sends: the TreeId
  std::uint8_t op = 0;    // reduce: ReduceOp::encode()
  std::uint8_t flags = 0;

  // A message or a reduce: the destination node.
  std::uint32_t dst_node() const { return target; }
  void set_dst_node(std::uint32_t node) { target = node; }
  // A broadcast: where its bytes land in every receiver's collective area, in flits (16 bytes).
  std::uint32_t landing_flits() const { return target; }
  void set_landing_flits(std::uint32_t flits) { target = flits; }
};
static_assert(sizeof(SendHeader) == 16);

// A received message: where its bytes are in the channel's ring and who sent it.
struct MessageRecord {
  std::uint32_t src_node = 0;
  std::uint16_t src_channel = 0;
  std::uint16_t reserved = 0;
  std::uint32_t offset = 0;  // in the ring; the message wraps around its end if it does not fit
  std::uint32_t bytes = 0;
};
static_assert(sizeof(MessageRecord) == 16);

}  // namespace angara::host_protocol
