// Unit tests of the packet format: header flit encoding and the payload check pattern.

#include "models/core/packet.h"
#include "models/core/packet_ledger.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <utility>

namespace angara {
namespace {

constexpr PacketKind kAllKinds[] = {PacketKind::Write,
                                    PacketKind::Read,
                                    PacketKind::Atomic,
                                    PacketKind::Broadcast,
                                    PacketKind::BroadcastRequest,
                                    PacketKind::Reduce,
                                    PacketKind::UpCredit,
                                    PacketKind::ReduceResult,
                                    PacketKind::Message,
                                    PacketKind::ReduceReport,
                                    PacketKind::AllreduceResult};

PacketHeader extreme_header(PacketKind kind) {
  PacketHeader h;
  h.kind = kind;
  h.src = 65535;
  h.dst = 65535;
  h.tree_id = 15;
  h.reduce_id = 15;
  h.op = 15;
  h.data_flits = kMaxDataFlits;
  h.vc = 7;
  h.high_word = std::numeric_limits<std::uint64_t>::max();
  return h;
}

TEST(PacketFormat, SizesMatchTheSpec) {
  EXPECT_EQ(kFlitBits, 128);
  EXPECT_EQ(kMaxDataFlits, 16);
  EXPECT_EQ(kMaxPacketFlits, 17);
  EXPECT_EQ(static_cast<int>(sizeof(Flit)) * 8, kFlitBits);
  EXPECT_EQ(kMaxDataFlits * kFlitBits / 8, 256);  // 256 bytes of payload at most
}

TEST(PacketHeader, ExtremeValuesRoundTripForEveryKind) {
  for (PacketKind kind : kAllKinds) {
    const PacketHeader h = extreme_header(kind);
    EXPECT_EQ(decode_header(encode_header(h)), h) << "kind " << static_cast<int>(kind);
  }
}

TEST(PacketHeader, ZeroHeaderIsTheZeroFlit) {
  EXPECT_EQ(encode_header(PacketHeader{}), (Flit{0, 0}));
  EXPECT_EQ(decode_header(Flit{0, 0}), PacketHeader{});
}

TEST(PacketHeader, SequenceNumberIsTheHighWord) {
  PacketHeader h;
  h.high_word = 0x0123456789abcdefULL;
  EXPECT_EQ(encode_header(h).hi, h.high_word);
  EXPECT_EQ(encode_header(h).lo, 0u);
}

// Each field at its maximum with every other field zero decodes to exactly that field, so no
// two fields overlap in the flit.
TEST(PacketHeader, FieldsDoNotOverlap) {
  const PacketHeader full = extreme_header(PacketKind::AllreduceResult);
  PacketHeader only[9];
  only[0].kind = full.kind;
  only[1].src = full.src;
  only[2].dst = full.dst;
  only[3].tree_id = full.tree_id;
  only[4].reduce_id = full.reduce_id;
  only[5].op = full.op;
  only[6].data_flits = full.data_flits;
  only[7].vc = full.vc;
  only[8].high_word = full.high_word;
  std::uint64_t seen_lo = 0;
  for (int i = 0; i < 9; ++i) {
    const Flit f = encode_header(only[i]);
    EXPECT_EQ(decode_header(f), only[i]) << "field " << i;
    EXPECT_EQ(seen_lo & f.lo, 0u) << "field " << i << " overlaps an earlier field";
    seen_lo |= f.lo;
  }
}

TEST(PacketHeader, MixedValuesRoundTrip) {
  PacketHeader h;
  h.kind = PacketKind::Reduce;
  h.src = 0xa5a5;
  h.dst = 0x5a5a;
  h.tree_id = 9;
  h.reduce_id = 6;
  h.op = 3;
  h.data_flits = 11;
  h.vc = 5;
  h.high_word = 0x8000000000000001ULL;
  EXPECT_EQ(decode_header(encode_header(h)), h);
  for (int flits = 0; flits <= kMaxDataFlits; ++flits) {
    h.data_flits = static_cast<std::uint8_t>(flits);
    EXPECT_EQ(decode_header(encode_header(h)).data_flits, flits);
  }
}

Packet full_packet(std::uint64_t seq) {
  Packet p;
  p.header.high_word = seq;
  p.header.data_flits = kMaxDataFlits;
  fill_check_pattern(p);
  return p;
}

TEST(CheckPattern, FilledPacketIsIntact) {
  for (std::uint64_t seq : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{123456789},
                            std::numeric_limits<std::uint64_t>::max()}) {
    EXPECT_TRUE(check_pattern_intact(full_packet(seq))) << "seq " << seq;
  }
}

TEST(CheckPattern, DetectsEverySingleFlippedBit) {
  Packet p = full_packet(42);
  for (int i = 0; i < kMaxDataFlits; ++i) {
    for (int bit = 0; bit < 64; ++bit) {
      const std::uint64_t mask = std::uint64_t{1} << bit;
      p.data[i].lo ^= mask;
      EXPECT_FALSE(check_pattern_intact(p)) << "flit " << i << " lo bit " << bit;
      p.data[i].lo ^= mask;
      p.data[i].hi ^= mask;
      EXPECT_FALSE(check_pattern_intact(p)) << "flit " << i << " hi bit " << bit;
      p.data[i].hi ^= mask;
    }
  }
  EXPECT_TRUE(check_pattern_intact(p));
}

TEST(CheckPattern, DependsOnTheSequenceNumber) {
  Packet p = full_packet(7);
  p.header.high_word = 8;
  EXPECT_FALSE(check_pattern_intact(p));
  // Flits of one packet differ from each other, so a repeated or swapped flit is detected.
  Packet q = full_packet(7);
  std::swap(q.data[3], q.data[4]);
  EXPECT_FALSE(check_pattern_intact(q));
}

TEST(CheckPattern, OnlyTheCarriedDataFlitsCount) {
  Packet header_only;
  header_only.header.high_word = 99;
  header_only.header.data_flits = 0;
  fill_check_pattern(header_only);
  EXPECT_TRUE(check_pattern_intact(header_only));
  header_only.data[0] = {0xdead, 0xbeef};  // not on the wire: ignored
  EXPECT_TRUE(check_pattern_intact(header_only));

  Packet short_packet;
  short_packet.header.high_word = 5;
  short_packet.header.data_flits = 3;
  fill_check_pattern(short_packet);
  EXPECT_TRUE(check_pattern_intact(short_packet));
  EXPECT_EQ(short_packet.data[3], Flit{});  // flits past data_flits are left alone
  short_packet.data[3].lo ^= 1;
  EXPECT_TRUE(check_pattern_intact(short_packet));
  short_packet.data[2].hi ^= std::uint64_t{1} << 63;
  EXPECT_FALSE(check_pattern_intact(short_packet));
  EXPECT_EQ(short_packet.wire_flits(), 4);
}

// The header's high word means one thing per kind; each meaning survives the header codec.
TEST(PacketHeader, SequenceTagAndLandingOffsetRoundTrip) {
  PacketHeader message;
  message.kind = PacketKind::Message;
  const MessageTag tag{7, 3, 250, kMaxMessageBytes};
  message.set_tag(tag);
  EXPECT_EQ(decode_header(encode_header(message)).tag(), tag);

  PacketHeader broadcast;
  broadcast.kind = PacketKind::Broadcast;
  broadcast.set_landing_offset(4096 + 48);
  EXPECT_EQ(decode_header(encode_header(broadcast)).landing_offset(), 4096u + 48u);

  PacketHeader write;
  write.set_sequence(PacketLedger::sequence(5, 12));
  EXPECT_EQ(decode_header(encode_header(write)).sequence(), PacketLedger::sequence(5, 12));
}

// A copy carries every field; a timing-only packet's data flits, which carry no values, are left
// as they were in the copy (they are most of its bytes).
TEST(CopyPacket, CopiesEveryFieldAndTheDataOnlyWhenItCarriesValues) {
  Packet from;
  from.header.kind = PacketKind::Message;
  from.header.src = 3;
  from.header.dst = 9;
  from.header.data_flits = 16;
  from.header.set_sequence(77);
  from.created = 10;
  from.head_at = 20;
  from.tail_at = 36;
  from.hops = 4;
  from.via = 5;
  from.train = 16;
  from.worm = 2;
  from.message_packets = 16;
  from.message_index = 7;
  from.request_tag = 11;
  from.data[0] = {1, 2};
  from.data[15] = {3, 4};
  const Flit old{9, 9};
  for (const bool timing_only : {false, true}) {
    from.timing_only = timing_only;
    Packet to;
    to.data.fill(old);
    copy_packet(to, from);
    EXPECT_EQ(to.header, from.header);
    EXPECT_EQ(to.created, 10u);
    EXPECT_EQ(to.head_at, 20u);
    EXPECT_EQ(to.tail_at, 36u);
    EXPECT_EQ(to.hops, 4);
    EXPECT_EQ(to.via, 5u);
    EXPECT_EQ(to.train, 16u);
    EXPECT_EQ(to.timing_only, timing_only);
    EXPECT_EQ(to.worm, 2u);
    EXPECT_EQ(to.message_packets, 16u);
    EXPECT_EQ(to.message_index, 7u);
    EXPECT_EQ(to.request_tag, 11u);
    EXPECT_EQ(to.data[0], timing_only ? old : (Flit{1, 2}));
    EXPECT_EQ(to.data[15], timing_only ? old : (Flit{3, 4}));
  }
}

}  // namespace
}  // namespace angara
