#pragma once
// A message packet's header carries, in its high 64-bit word, what the receiving endpoint needs
// to rebuild messages: the packet's number in the
// stream from its sender to this node (so that it can restore the order in which they were
// sent), the channels at both ends and the whole message's length.

#include <cstdint>

namespace angara {

struct MessageTag {
  std::uint32_t packet = 0;      // packets from this sender to this node, numbered from 0
  std::uint8_t dst_channel = 0;  // 8 bits: up to 256 channels per node
  std::uint8_t src_channel = 0;
  std::uint32_t message_bytes = 1;  // 1 .. 65536

  constexpr bool operator==(const MessageTag&) const = default;
};

inline constexpr std::uint32_t kMaxMessageBytes = 65536;
inline constexpr int kMaxChannels = 256;

constexpr std::uint64_t encode_tag(const MessageTag& t) {
  return (std::uint64_t{t.packet} << 32) | (std::uint64_t{t.dst_channel} << 24) |
         (std::uint64_t{t.src_channel} << 16) | ((t.message_bytes - 1) & 0xffff);
}

constexpr MessageTag decode_tag(std::uint64_t word) {
  return {static_cast<std::uint32_t>(word >> 32), static_cast<std::uint8_t>(word >> 24),
          static_cast<std::uint8_t>(word >> 16), static_cast<std::uint32_t>(word & 0xffff) + 1};
}

}  // namespace angara
