#pragma once
// What the host and its PCIe endpoint say to each other, as the addresses and records of
// tlm_generic_payload writes (DESIGN.md, "The network protocol": host side memory-mapped).
//   host -> endpoint (stores into the endpoint's window, posted):
//     kPioSend     a SendHeader and the message's bytes, stored by the CPU itself;
//     kDmaSend     a SendHeader only (a doorbell); the endpoint fetches the bytes from host memory
//                  by DMA. The model takes the bytes from the same write and times the DMA read;
//     kRxReleased  + 8 * channel: a u64, bytes of that channel's receive ring released so far.
//   endpoint -> host (DMA writes into host memory):
//     kTxSent      a u64, bytes of messages the endpoint has put on the network so far;
//     kRecord      + channel: a MessageRecord, once the message's bytes are in the ring;
//     kRing        + channel * ring_bytes + offset: a received message's bytes.

#include <cstdint>

namespace angara::host_protocol {

inline constexpr std::uint64_t kPioSend = 0x0;
inline constexpr std::uint64_t kDmaSend = 0x1000;
inline constexpr std::uint64_t kRxReleased = 0x2000;

inline constexpr std::uint64_t kTxSent = 0x0;
inline constexpr std::uint64_t kRecord = 0x1000;
inline constexpr std::uint64_t kRing = std::uint64_t{1} << 32;

// Leads every send: 16 bytes, one flit.
struct SendHeader {
  std::uint32_t dst_node = 0;
  std::uint16_t dst_channel = 0;
  std::uint16_t src_channel = 0;
  std::uint32_t bytes = 0;  // of the message, after the header
  std::uint32_t reserved = 0;
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
