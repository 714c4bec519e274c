#include "models/core/packet_ledger.h"

#include <gtest/gtest.h>

namespace angara {
namespace {

Packet make(NodeId src, std::uint64_t n, NodeId dst) {
  Packet p;
  p.header.src = src;
  p.header.dst = dst;
  p.header.data_flits = 4;
  p.header.set_sequence(PacketLedger::sequence(src, n));
  fill_check_pattern(p);
  return p;
}

TEST(PacketLedger, CountsPacketsInFlightUntilDelivered) {
  PacketLedger ledger;
  const Packet a = make(3, 0, 5), b = make(3, 1, 6), c = make(0, 0, 3);
  ledger.injected(a);
  ledger.injected(b);
  ledger.injected(c);
  EXPECT_EQ(ledger.in_flight(), 3u);
  ledger.delivered(b, 6);
  ledger.delivered(c, 3);
  ledger.delivered(a, 5);
  EXPECT_EQ(ledger.in_flight(), 0u);
  EXPECT_EQ(ledger.delivered_count(), 3u);
}

TEST(PacketLedger, RejectsDuplicateWrongNodeCorruptionAndPhantoms) {
  PacketLedger ledger;
  const Packet a = make(1, 0, 2);
  ledger.injected(a);
  EXPECT_THROW(ledger.injected(a), ModelError);  // out of sequence: #0 again
  ledger.delivered(a, 2);
  EXPECT_THROW(ledger.delivered(a, 2), ModelError);              // twice
  EXPECT_THROW(ledger.delivered(make(1, 5, 2), 2), ModelError);  // never injected
  EXPECT_THROW(ledger.delivered(make(9, 0, 2), 2), ModelError);  // unknown source

  const Packet b = make(1, 1, 4);
  ledger.injected(b);
  EXPECT_THROW(ledger.delivered(b, 3), ModelError);  // wrong destination

  Packet c = make(1, 2, 4);
  ledger.injected(c);
  c.data[2].hi ^= 1;
  EXPECT_THROW(ledger.delivered(c, 4), ModelError);  // corrupted payload
}

}  // namespace
}  // namespace angara
