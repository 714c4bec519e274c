// The tie rules (router.ties) choose the way round an even ring at half its size as the routing
// header says: which share of the half-ring pairs goes the negative way, and which way a given
// source goes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "regress/support/route_walk.h"

namespace angara {
namespace {

using namespace test;  // NOLINT: the route walk's helpers and direction names

constexpr std::uint64_t kSeed = 7;

// On an 8x8 torus, the pairs half a ring apart along X: the share whose route starts the negative
// way round X under each rule. Positive never; the parity rules exactly half (of sources or of
// destinations); random about half, the same for the same packet key and seed.
double negative_share(TieRule ties, std::uint64_t seed, std::uint64_t key_base) {
  const Torus torus({8, 8});
  const DirectionOrderRouting routing(torus, router_params(DeadlockScheme::Dateline, {}, ties),
                                      seed);
  int ties_seen = 0, negative = 0;
  for (NodeId src = 0; src < 64; ++src) {
    for (NodeId dst = 0; dst < 64; ++dst) {
      if (std::abs(torus.ring_offset(torus.coords(src)[0], torus.coords(dst)[0], 0)) != 4) continue;
      ++ties_seen;
      const Walk w = walk(torus, routing, src, dst, key_base + src * 64 + dst);
      negative += w.hops.front().dir == kMX ? 1 : 0;
    }
  }
  return static_cast<double>(negative) / ties_seen;
}

TEST(TieRules, EachSplitsTheHalfRingPairsAsItSays) {
  EXPECT_EQ(negative_share(TieRule::Positive, kSeed, 0), 0.0);
  EXPECT_EQ(negative_share(TieRule::SourceParity, kSeed, 0), 0.5);
  EXPECT_EQ(negative_share(TieRule::DestinationParity, kSeed, 0), 0.5);
  const double random = negative_share(TieRule::Random, kSeed, 0);
  EXPECT_GT(random, 0.4);
  EXPECT_LT(random, 0.6);
  EXPECT_EQ(negative_share(TieRule::Random, kSeed, 0), random);  // the same draws again
  EXPECT_NE(negative_share(TieRule::Random, kSeed + 1, 0), random);
  EXPECT_NE(negative_share(TieRule::Random, kSeed, 1), random);
}

TEST(TieRules, SourceParityFollowsTheSourcesCoordinate) {
  const Torus torus({4, 4});
  const DirectionOrderRouting routing(
      torus, router_params(DeadlockScheme::Bubble, {}, TieRule::SourceParity), kSeed);
  // From x = 0 (even) to x = 2: +X; from x = 1 (odd) to x = 3: -X; Y likewise where X is done.
  EXPECT_EQ(walk(torus, routing, torus.node({0, 0}), torus.node({2, 0})).hops.front().dir, kPX);
  EXPECT_EQ(walk(torus, routing, torus.node({1, 0}), torus.node({3, 0})).hops.front().dir, kMX);
  EXPECT_EQ(walk(torus, routing, torus.node({1, 1}), torus.node({1, 3})).hops.front().dir, kMY);
  EXPECT_EQ(walk(torus, routing, torus.node({1, 2}), torus.node({1, 0})).hops.front().dir, kPY);
}

}  // namespace
}  // namespace angara
