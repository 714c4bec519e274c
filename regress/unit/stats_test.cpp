// Unit tests of the latency statistics, of the credit counter a router keeps per downstream VC, of
// a router's network statistics over a window (RouterStats) and of traffic over time
// (TrafficTimeline).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "models/core/latency_stats.h"
#include "models/fabric/credit_counter.h"
#include "models/router/router_stats.h"
#include "workloads/synthetic/synthetic_traffic.h"
#include "workloads/synthetic/traffic_timeline.h"

namespace angara {
namespace {

// 1..100 added in a shuffled order, so nothing relies on the samples arriving sorted.
LatencyStats one_to_hundred() {
  std::vector<Cycle> values(100);
  std::iota(values.begin(), values.end(), Cycle{1});
  std::shuffle(values.begin(), values.end(), std::mt19937(12345));
  LatencyStats s;
  for (Cycle v : values) s.add(v);
  return s;
}

TEST(LatencyStats, EmptyIsAllZero) {
  const LatencyStats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.min(), 0u);
  EXPECT_EQ(s.max(), 0u);
  EXPECT_EQ(s.percentile(0.5), 0u);
  EXPECT_EQ(s.percentile(0.99), 0u);
  EXPECT_TRUE(s.histogram(10).empty());
}

TEST(LatencyStats, OneToHundred) {
  const LatencyStats s = one_to_hundred();
  EXPECT_EQ(s.count(), 100u);
  EXPECT_DOUBLE_EQ(s.mean(), 50.5);
  EXPECT_EQ(s.min(), 1u);
  EXPECT_EQ(s.max(), 100u);
  EXPECT_EQ(s.percentile(0.5), 50u);
  EXPECT_EQ(s.percentile(0.99), 99u);
  EXPECT_EQ(s.percentile(0.995), 100u);
  EXPECT_EQ(s.percentile(1.0), 100u);
  EXPECT_EQ(s.percentile(0.0), 1u);
  EXPECT_EQ(s.percentile(0.001), 1u);
  EXPECT_EQ(s.percentile(0.011), 2u);
}

TEST(LatencyStats, SmallSetsByHand) {
  LatencyStats s;
  for (Cycle v : {5u, 1u, 3u}) s.add(v);
  EXPECT_DOUBLE_EQ(s.mean(), 3.0);
  EXPECT_EQ(s.percentile(0.5), 3u);   // rank ceil(1.5) = 2 of {1, 3, 5}
  EXPECT_EQ(s.percentile(0.99), 5u);  // rank ceil(2.97) = 3
  EXPECT_EQ(s.percentile(0.33), 1u);  // rank ceil(0.99) = 1
  EXPECT_EQ(s.min(), 1u);
  EXPECT_EQ(s.max(), 5u);

  LatencyStats repeated;
  for (Cycle v : {7u, 7u, 7u, 100u}) repeated.add(v);
  EXPECT_DOUBLE_EQ(repeated.mean(), 30.25);
  EXPECT_EQ(repeated.percentile(0.5), 7u);
  EXPECT_EQ(repeated.percentile(0.75), 7u);
  EXPECT_EQ(repeated.percentile(0.76), 100u);

  LatencyStats single;
  single.add(42);
  EXPECT_EQ(single.percentile(0.0), 42u);
  EXPECT_EQ(single.percentile(0.99), 42u);
  EXPECT_DOUBLE_EQ(single.mean(), 42.0);
}

TEST(LatencyStats, SamplesAddedAfterAQueryAreCounted) {
  LatencyStats s;
  for (Cycle v = 10; v >= 1; --v) s.add(v);
  EXPECT_EQ(s.percentile(0.5), 5u);
  EXPECT_EQ(s.max(), 10u);
  s.add(1000);
  s.add(0);
  EXPECT_EQ(s.count(), 12u);
  EXPECT_EQ(s.max(), 1000u);
  EXPECT_EQ(s.min(), 0u);
  EXPECT_EQ(s.percentile(0.5), 5u);  // rank 6 of {0, 1, ..., 10, 1000}
  EXPECT_EQ(s.percentile(1.0), 1000u);
  EXPECT_DOUBLE_EQ(s.mean(), 1055.0 / 12.0);
}

TEST(LatencyStats, HistogramOfOneToHundredInTenBins) {
  const auto bins = one_to_hundred().histogram(10);
  ASSERT_EQ(bins.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(bins[i].lo, static_cast<Cycle>(1 + 10 * i));
    EXPECT_EQ(bins[i].hi, static_cast<Cycle>(11 + 10 * i));
    EXPECT_EQ(bins[i].count, 10u);
  }
}

// For any sample set and bin count: bins are contiguous and equally wide, start at the minimum,
// the last one holds the maximum, each count is the number of samples in [lo, hi), and the counts
// add up to count().
void expect_histogram_consistent(const std::vector<Cycle>& samples, int requested) {
  LatencyStats s;
  for (Cycle v : samples) s.add(v);
  const auto bins = s.histogram(requested);
  ASSERT_FALSE(bins.empty());
  EXPECT_LE(static_cast<int>(bins.size()), requested);
  EXPECT_EQ(bins.front().lo, s.min());
  EXPECT_LE(bins.back().lo, s.max());
  EXPECT_GT(bins.back().hi, s.max());
  EXPECT_GT(bins.back().count, 0u);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    EXPECT_GT(bins[i].hi, bins[i].lo);
    EXPECT_EQ(bins[i].hi - bins[i].lo, bins[0].hi - bins[0].lo);
    if (i > 0) {
      EXPECT_EQ(bins[i].lo, bins[i - 1].hi);
    }
    const auto in_bin = std::count_if(samples.begin(), samples.end(),
                                      [&](Cycle v) { return v >= bins[i].lo && v < bins[i].hi; });
    EXPECT_EQ(bins[i].count, static_cast<std::uint64_t>(in_bin)) << "bin " << i;
    total += bins[i].count;
  }
  EXPECT_EQ(total, s.count());
}

TEST(LatencyStats, HistogramBinsCoverMinToMaxAndCountEverySample) {
  std::vector<Cycle> hundred(100);
  std::iota(hundred.begin(), hundred.end(), Cycle{1});
  std::mt19937_64 rng(7);
  std::vector<Cycle> random(1000);
  for (Cycle& v : random) v = 200 + rng() % 5000;
  for (int requested : {1, 2, 3, 7, 10, 60, 200}) {
    SCOPED_TRACE(requested);
    expect_histogram_consistent(hundred, requested);
    expect_histogram_consistent(random, requested);
    expect_histogram_consistent({42}, requested);
    expect_histogram_consistent({9, 9, 9}, requested);
    expect_histogram_consistent({3, 4}, requested);
  }
  LatencyStats s;
  s.add(1);
  EXPECT_TRUE(s.histogram(0).empty());
}

TEST(CreditCounter, StartsWithTheGivenCredits) {
  CreditCounter empty;
  EXPECT_EQ(empty.available(), 0);
  EXPECT_EQ(empty.at(1000), 0);
  CreditCounter c(10);
  EXPECT_EQ(c.available(), 10);
  EXPECT_EQ(c.at(0), 10);
  c.consume(4);
  EXPECT_EQ(c.available(), 6);
  EXPECT_EQ(c.at(0), 6);
}

TEST(CreditCounter, ReturnsBecomeUsableAtTheirCycle) {
  CreditCounter c(10);
  c.consume(10);
  c.add(5, 3);
  EXPECT_EQ(c.at(4), 0);
  EXPECT_EQ(c.available(), 0);
  EXPECT_EQ(c.at(5), 3);
  EXPECT_EQ(c.available(), 3);
  c.add(10, 2);
  c.add(12, 5);
  EXPECT_EQ(c.at(11), 5);  // the return at 10 only
  EXPECT_EQ(c.at(11), 5);  // absorbing is idempotent
  EXPECT_EQ(c.at(100), 10);
  EXPECT_EQ(c.at(200), 10);
}

TEST(CreditCounter, WhenLooksIntoPendingReturnsWithoutAbsorbingThem) {
  CreditCounter c(6);
  c.add(5, 3);
  c.add(10, 2);
  c.add(12, 5);
  EXPECT_EQ(c.when({0, 6}), 0u);  // enough already
  EXPECT_EQ(c.when({3, 0}), 3u);
  EXPECT_EQ(c.when({0, 7}), 5u);  // needs the return at 5
  EXPECT_EQ(c.when({0, 9}), 5u);
  EXPECT_EQ(c.when({7, 9}), 7u);  // already due by `from`
  EXPECT_EQ(c.when({0, 10}), 10u);
  EXPECT_EQ(c.when({11, 11}), 11u);
  EXPECT_EQ(c.when({0, 16}), 12u);
  EXPECT_EQ(c.when({0, 17}), kNever);  // not even with every known return
  EXPECT_EQ(c.available(), 6);         // when() is a query
  EXPECT_EQ(c.at(4), 6);
  c.consume(6);
  EXPECT_EQ(c.when({4, 1}), 5u);
  EXPECT_EQ(c.when({4, 3}), 5u);
  EXPECT_EQ(c.when({4, 4}), 10u);
  EXPECT_EQ(c.at(10), 5);
  EXPECT_EQ(c.when({10, 5}), 10u);
  EXPECT_EQ(c.when({10, 6}), 12u);
}

TEST(CreditCounter, AddWakesOnlyAfterASenderWaited) {
  CreditCounter c(4);
  EXPECT_FALSE(c.add(1, 1));
  EXPECT_FALSE(c.add(2, 1));
  c.mark_waited_on();
  EXPECT_TRUE(c.add(3, 1));
  EXPECT_FALSE(c.add(4, 1));  // one wake per wait
  c.mark_waited_on();
  c.mark_waited_on();
  EXPECT_TRUE(c.add(5, 1));
  EXPECT_FALSE(c.add(6, 1));
  EXPECT_EQ(c.at(6), 10);
}

// A window [100, 200) of a router with 2 ports of 2 VCs.
TEST(RouterStats, CountsWhatStartsInTheWindowAndBusyCyclesInsideIt) {
  RouterStats s(2, 2, 100, 200, true);
  // Starts before the window, busy 90..105: 5 busy cycles count, not its flits.
  s.issued(0, 0, true, 1, 1, 17, 80, 87, 90, 15, 105);
  // Starts inside, busy 190..205: 10 busy cycles, its flits and packet, waited 4 cycles.
  s.issued(0, 1, true, 1, 1, 9, 180, 186, 190, 15, 205);
  // Starts at the window's end: nothing.
  s.issued(1, 0, true, 0, 1, 17, 190, 197, 200, 15, 215);
  EXPECT_EQ(s.output(1).busy, 15u);
  EXPECT_EQ(s.output(1).flits, 9u);
  EXPECT_EQ(s.output(1).packets, 1u);
  EXPECT_EQ(s.output(0).busy, 0u);
  EXPECT_EQ(s.output(0).flits, 0u);
  EXPECT_EQ(s.counters().packets, 1u);
  EXPECT_EQ(s.counters().flits, 9u);
  EXPECT_EQ(s.counters().wait_cycles, 4u);
}

TEST(RouterStats, InputVcOccupancyIsTimeWeightedAndClippedToTheWindow) {
  RouterStats s(2, 2, 100, 200, true);
  // Input (0, 0): 17 flits over [80, 120) (20 cycles inside), 10 flits over [110, 150) and
  // 5 flits over [190, 260) (10 inside): 17 x 20 + 10 x 40 + 5 x 10 = 790 flit-cycles.
  s.issued(0, 0, true, 1, 1, 17, 80, 83, 100, 15, 120);
  s.issued(0, 0, true, 1, 1, 10, 110, 113, 130, 15, 150);
  s.issued(0, 0, true, 1, 1, 5, 190, 193, 250, 15, 260);
  // A copy that does not free its input (more copies to come) holds nothing yet.
  s.issued(1, 1, false, 0, 1, 17, 120, 123, 130, 15, 145);
  const RouterStats::InputVc vc = s.input_vc(0, 0);
  EXPECT_DOUBLE_EQ(vc.mean_flits, 7.9);
  EXPECT_EQ(vc.max_flits, 27);  // [110, 120): both
  EXPECT_EQ(s.input_vc(1, 1).max_flits, 0);
  EXPECT_DOUBLE_EQ(s.input_vc(1, 1).mean_flits, 0.0);
}

TEST(RouterStats, WithoutBuffersNoOccupancyIsKept) {
  RouterStats s(1, 1, 0, 100, false);
  s.issued(0, 0, true, 0, 1, 17, 10, 13, 15, 15, 30);
  EXPECT_EQ(s.input_vc(0, 0).max_flits, 0);
  EXPECT_DOUBLE_EQ(s.input_vc(0, 0).mean_flits, 0.0);
  EXPECT_EQ(s.output(0).flits, 17u);
}

TEST(RouterStats, APacketLeavingAsTheNextArrivesIsNotCountedTwice) {
  RouterStats s(1, 1, 0, 100, true);
  s.issued(0, 0, true, 0, 1, 17, 10, 13, 15, 15, 30);
  s.issued(0, 0, true, 0, 1, 17, 30, 33, 35, 15, 50);
  EXPECT_EQ(s.input_vc(0, 0).max_flits, 17);
  EXPECT_DOUBLE_EQ(s.input_vc(0, 0).mean_flits, 17.0 * 40 / 100);
}

Packet arrived(Cycle created, Cycle tail_at, int data_flits, std::uint32_t tag = 0) {
  Packet p;
  p.created = created;
  p.tail_at = tail_at;
  p.header.data_flits = data_flits;
  p.request_tag = tag;
  return p;
}

TEST(TrafficTimeline, APacketCountsWhereItIsCreatedArrivesAndWaits) {
  TrafficTimeline t(100);
  PacketRequest request;
  request.data_flits = 16;
  request.created = 150;
  t.created(request, 0);
  t.delivered(arrived(150, 420, 16), 3);  // outstanding 50 + 100 + 100 + 20 cycles
  t.delivered(arrived(400, 430, 0), 3);   // created unseen: a packet counts where it arrives
  ASSERT_EQ(t.intervals().size(), 5u);
  EXPECT_EQ(t.intervals()[1].created_packets, 1u);
  EXPECT_EQ(t.intervals()[1].created_flits, 17u);
  const std::uint64_t outstanding[] = {0, 50, 100, 100, 20 + 30};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(t.intervals()[i].outstanding_cycles, outstanding[i]) << "interval " << i;
    EXPECT_EQ(t.intervals()[i].delivered_packets, i == 4 ? 2u : 0u) << "interval " << i;
  }
  EXPECT_EQ(t.intervals()[4].delivered_flits, 18u);
  EXPECT_EQ(t.intervals()[4].latency.max(), 270u);
  EXPECT_EQ(t.intervals()[4].latency.min(), 30u);
}

TEST(TrafficTimeline, ProbesAreLeftOut) {
  TrafficTimeline t(10);
  PacketRequest probe;
  probe.tag = kProbeTag;
  t.created(probe, 0);
  t.delivered(arrived(0, 25, 4, kProbeTag), 1);
  EXPECT_TRUE(t.intervals().empty());
}

}  // namespace
}  // namespace angara
