// Synthetic traffic does what its config says (workloads/synthetic): destination frequencies
// against the expected distribution (chi-square with a fixed seed), the permutations' maps, the
// injection processes' mean rates and burst lengths, the bimodal share.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "models/core/packet_ledger.h"
#include "workloads/synthetic/destinations.h"
#include "workloads/synthetic/injection.h"
#include "workloads/synthetic/synthetic_traffic.h"
#include "workloads/synthetic/traffic_measurement.h"

namespace angara {
namespace {

constexpr int kDraws = 200000;

// Pearson's chi-square of `counts` against equal shares over `support`, and its 99.9% critical
// value (Wilson-Hilferty), so a test fails by chance once in a thousand seeds.
struct ChiSquare {
  double statistic = 0, critical = 0;
};
ChiSquare chi_square(const std::map<NodeId, int>& counts, const std::set<NodeId>& support) {
  double total = 0;
  for (const auto& [node, n] : counts) total += n;
  const double expected = total / static_cast<double>(support.size());
  ChiSquare c;
  for (NodeId node : support) {
    const auto it = counts.find(node);
    const double d = (it == counts.end() ? 0 : it->second) - expected;
    c.statistic += d * d / expected;
  }
  const double df = static_cast<double>(support.size()) - 1;
  const double z = 3.09;  // the normal's 99.9% quantile
  c.critical = df * std::pow(1 - 2 / (9 * df) + z * std::sqrt(2 / (9 * df)), 3);
  return c;
}

std::map<NodeId, int> draw(const Destinations& d, NodeId src, int n = kDraws) {
  Rng rng(7, src);
  std::map<NodeId, int> counts;
  for (int i = 0; i < n; ++i) ++counts[d.pick(src, rng)];
  return counts;
}

TrafficParams pattern(TrafficPattern p) {
  TrafficParams t;
  t.pattern = p;
  return t;
}

TEST(Destinations, UniformIsEquallyLikelyOverTheOtherNodes) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  const Destinations d(torus_topology, pattern(TrafficPattern::Uniform), 1);
  const auto counts = draw(d, 5);
  EXPECT_EQ(counts.count(5), 0U) << "a node sent to itself";
  std::set<NodeId> others;
  for (NodeId n = 0; n < 64; ++n) {
    if (n != 5) others.insert(n);
  }
  const ChiSquare c = chi_square(counts, others);
  EXPECT_LT(c.statistic, c.critical);
}

// Failed nodes ([faults]) send nothing and are sent nothing; uniform stays equally likely over
// the live ones, and a permutation's source whose image failed sends nothing.
TEST(Destinations, FailedNodesSendAndReceiveNothing) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  FaultParams f;
  f.nodes = {{1, 0, 0}, {2, 3, 1}};
  f.random_nodes = 0.05;
  const FaultMap faults(*torus_topology.torus(), f, 1);
  ASSERT_GE(faults.failed_nodes().size(), 4U);
  const auto failed = [&](NodeId n) { return faults.node_failed(n); };
  const Destinations uniform(torus_topology, pattern(TrafficPattern::Uniform), 1, faults);
  EXPECT_FALSE(uniform.sends(1));
  const auto counts = draw(uniform, 5);
  std::set<NodeId> live;
  for (NodeId n = 0; n < 64; ++n) {
    if (n != 5 && !failed(n)) live.insert(n);
  }
  for (const auto& [node, n] : counts) EXPECT_TRUE(live.count(node)) << node;
  const ChiSquare c = chi_square(counts, live);
  EXPECT_LT(c.statistic, c.critical);
  TrafficParams local = pattern(TrafficPattern::Local);
  local.local_rate = 1.0;
  local.local_distance = 1;  // (0,0,0)'s neighbour (1,0,0) failed: drawn again
  const Destinations near(torus_topology, local, 1, faults);
  for (const auto& [node, n] : draw(near, 0, 20000)) EXPECT_FALSE(failed(node)) << node;
  const Destinations neighbour(torus_topology, pattern(TrafficPattern::Neighbour), 1, faults);
  EXPECT_FALSE(neighbour.sends(60));  // (0,3,3) sends to (1,0,0), which failed
  for (NodeId n = 0; n < 64; ++n) {
    Rng rng(1, n);
    if (neighbour.sends(n)) {
      EXPECT_FALSE(failed(neighbour.pick(n, rng))) << n;
    }
  }
}

TEST(Destinations, LocalStaysWithinItsRadiusAsOftenAsAsked) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  const Torus& torus = *torus_topology.torus();
  TrafficParams t = pattern(TrafficPattern::Local);
  t.local_distance = 2;
  t.local_rate = 1.0;
  const NodeId src = torus.node({1, 2, 3});
  std::set<NodeId> near;
  for (NodeId n = 0; n < 64; ++n) {
    const int hops = torus.min_hops(src, n);
    if (hops >= 1 && hops <= 2) near.insert(n);
  }
  // 6 at one hop; at two, 3 straight (two hops either way on a ring of 4 meet) and 12 bent.
  ASSERT_EQ(near.size(), 6U + 3U + 12U);
  const auto all_near = draw(Destinations(torus_topology, t, 1), src);
  for (const auto& [node, n] : all_near) EXPECT_TRUE(near.count(node)) << node << " is too far";
  const ChiSquare c = chi_square(all_near, near);
  EXPECT_LT(c.statistic, c.critical);

  t.local_rate = 0.3;  // else uniform over the other 63, which may be near too
  const auto mixed = draw(Destinations(torus_topology, t, 1), src);
  int within = 0;
  for (const auto& [node, n] : mixed) within += near.count(node) ? n : 0;
  const double p = 0.3 + 0.7 * 21.0 / 63.0;
  EXPECT_NEAR(within / double(kDraws), p, 4 * std::sqrt(p * (1 - p) / kDraws));
}

TEST(Destinations, HotspotTakesItsShare) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  const Torus& torus = *torus_topology.torus();
  TrafficParams t = pattern(TrafficPattern::Hotspot);
  t.hotspot_rate = 0.2;
  t.hotspot_node = {1, 2, 3};
  const NodeId hot = torus.node({1, 2, 3});
  const Destinations d(torus_topology, t, 1);
  const auto counts = draw(d, 0);
  const double p = 0.2 + 0.8 / 63.0;
  EXPECT_NEAR(counts.at(hot) / double(kDraws), p, 4 * std::sqrt(p * (1 - p) / kDraws));
  // The hot node itself sends uniformly.
  const auto from_hot = draw(d, hot);
  std::set<NodeId> others;
  for (NodeId n = 0; n < 64; ++n) {
    if (n != hot) others.insert(n);
  }
  EXPECT_EQ(from_hot.count(hot), 0U);
  const ChiSquare c = chi_square(from_hot, others);
  EXPECT_LT(c.statistic, c.critical);
}

TEST(Destinations, PermutationsMapNodeIdsAndCoordinates) {
  const Topology t64_topology(TopologyParams{.dims = {4, 4, 4}});
  Rng rng(1, 0);
  const auto map = [&](TrafficPattern p, NodeId src, const Topology& topology) {
    return Destinations(topology, pattern(p), 1).pick(src, rng);
  };
  EXPECT_EQ(map(TrafficPattern::BitComplement, 0, t64_topology), 63U);
  EXPECT_EQ(map(TrafficPattern::BitComplement, 0b101010, t64_topology), 0b010101U);
  EXPECT_EQ(map(TrafficPattern::BitReverse, 1, t64_topology), 32U);
  EXPECT_EQ(map(TrafficPattern::BitReverse, 0b110100, t64_topology), 0b001011U);
  EXPECT_EQ(map(TrafficPattern::Shuffle, 1, t64_topology), 2U);
  EXPECT_EQ(map(TrafficPattern::Shuffle, 32, t64_topology), 1U);
  EXPECT_EQ(map(TrafficPattern::Transpose, 0b000001, t64_topology), 0b001000U);
  EXPECT_EQ(map(TrafficPattern::Transpose, 0b110010, t64_topology), 0b010110U);
  const Topology t8_topology(TopologyParams{.dims = {8, 8}});
  const Torus& t8 = *t8_topology.torus();  // tornado: x + 3 on a ring of 8; neighbour: x + 1
  EXPECT_EQ(map(TrafficPattern::Tornado, t8.node({6, 1}), t8_topology), t8.node({1, 4}));
  EXPECT_EQ(map(TrafficPattern::Neighbour, t8.node({7, 2}), t8_topology), t8.node({0, 3}));
  // Nodes a permutation maps to themselves send nothing.
  const Destinations reverse(t64_topology, pattern(TrafficPattern::BitReverse), 1);
  EXPECT_FALSE(reverse.sends(0b100001));
  EXPECT_TRUE(reverse.sends(1));
}

TEST(Destinations, RandomPermutationIsABijectionWithoutFixedPointsFromTheSeed) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  Rng rng(1, 0);
  std::vector<NodeId> first, again, other;
  const Destinations a(torus_topology, pattern(TrafficPattern::RandomPermutation), 11);
  const Destinations b(torus_topology, pattern(TrafficPattern::RandomPermutation), 11);
  const Destinations c(torus_topology, pattern(TrafficPattern::RandomPermutation), 12);
  for (NodeId n = 0; n < 64; ++n) {
    first.push_back(a.pick(n, rng));
    again.push_back(b.pick(n, rng));
    other.push_back(c.pick(n, rng));
    EXPECT_NE(first.back(), n);
    EXPECT_TRUE(a.sends(n));
  }
  EXPECT_EQ(std::set<NodeId>(first.begin(), first.end()).size(), 64U);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
}

TEST(Destinations, Fft3dPhasesStayInTheirRowOrColumn) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  TrafficParams t = pattern(TrafficPattern::Fft3d);
  t.fft_rows = 4;
  t.fft_cols = 8;  // 32 processes on nodes 0..31; node 10 is row 1, column 2
  const auto row = draw(Destinations(torus_topology, t, 1), 10);
  std::set<NodeId> row_peers;
  for (NodeId n = 8; n < 16; ++n) {
    if (n != 10) row_peers.insert(n);
  }
  for (const auto& [node, n] : row) EXPECT_TRUE(row_peers.count(node)) << node;
  const ChiSquare c = chi_square(row, row_peers);
  EXPECT_LT(c.statistic, c.critical);
  t.fft_phase = 2;
  const Destinations columns(torus_topology, t, 1);
  const auto column = draw(columns, 10);
  const std::set<NodeId> column_peers{2, 18, 26};
  for (const auto& [node, n] : column) EXPECT_TRUE(column_peers.count(node)) << node;
  EXPECT_FALSE(columns.sends(32));
  EXPECT_TRUE(columns.sends(31));
}

// Packets created over `cycles` cycles by one node's process, per cycle.
std::vector<int> created(const TrafficParams& t, double per_cycle, Cycle cycles) {
  Injection injection(t, per_cycle);
  Rng rng(3, 0);
  std::vector<int> per(static_cast<std::size_t>(cycles), 0);
  for (Cycle c = injection.next(rng); c < cycles; c = injection.next(rng)) ++per[c];
  return per;
}

double mean(const std::vector<int>& v) {
  double sum = 0;
  for (int x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

TEST(Injection, BernoulliAndPoissonKeepTheirMeanRate) {
  TrafficParams t;
  const auto bernoulli = created(t, 0.05, 1000000);
  EXPECT_NEAR(mean(bernoulli), 0.05, 0.0015);
  for (int n : bernoulli) ASSERT_LE(n, 1) << "Bernoulli makes one packet a cycle at most";
  t.injection = InjectionProcess::Poisson;
  const auto poisson = created(t, 0.5, 1000000);
  EXPECT_NEAR(mean(poisson), 0.5, 0.005);
  // Counts per window of 100 cycles: a Poisson process's variance equals its mean.
  std::vector<int> windows;
  for (std::size_t i = 0; i + 100 <= poisson.size(); i += 100) {
    int n = 0;
    for (std::size_t j = i; j < i + 100; ++j) n += poisson[j];
    windows.push_back(n);
  }
  double var = 0;
  const double m = mean(windows);
  for (int n : windows) var += (n - m) * (n - m);
  var /= static_cast<double>(windows.size() - 1);
  EXPECT_NEAR(var / m, 1.0, 0.05);
  EXPECT_GT(*std::max_element(poisson.begin(), poisson.end()), 1);
}

TEST(Injection, OnOffKeepsItsMeanRateAndBurstLengths) {
  TrafficParams t;
  t.injection = InjectionProcess::OnOff;
  t.burst_cycles = 40;
  t.idle_cycles = 160;
  const auto sparse = created(t, 0.05, 2000000);
  EXPECT_NEAR(mean(sparse), 0.05, 0.002);
  // At a packet every cycle while on, runs of busy cycles are the bursts (a pause of 0 cycles,
  // 1 in 161, joins two), and the gaps between them the pauses (of at least one cycle: I + 1).
  const auto full = created(t, 40.0 / 200.0, 4000000);
  std::vector<int> runs, gaps;
  int run = 0, gap = 0;
  for (int n : full) {
    if (n > 0) {
      if (gap > 0 && run == 0 && !runs.empty()) gaps.push_back(gap);
      ++run;
      gap = 0;
    } else {
      if (run > 0) runs.push_back(run);
      run = 0;
      ++gap;
    }
  }
  EXPECT_NEAR(mean(runs), 40 * (1 + 1 / 161.0), 40 * 0.05);
  EXPECT_NEAR(mean(gaps), 161, 161 * 0.05);
  EXPECT_NEAR(mean(full), 0.2, 0.006);
}

TEST(SyntheticTraffic, AMessageLongerThanAPacketGoesAsPacketsCreatedTogether) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  TrafficParams t;
  t.rate = 0.2;
  t.message_flits = 40;
  const Destinations d(torus_topology, t, 1);
  SyntheticTraffic source(0, d, t, 1);
  for (int m = 0; m < 100; ++m) {
    const auto a = source.next(), b = source.next(), c = source.next();
    ASSERT_TRUE(a && b && c);
    EXPECT_TRUE(a->message_packets == 3U && b->message_packets == 3U && c->message_packets == 3U);
    EXPECT_EQ(a->message_index, 0U);
    EXPECT_EQ(b->message_index, 1U);
    EXPECT_EQ(c->message_index, 2U);
    EXPECT_EQ(a->data_flits + b->data_flits + c->data_flits, 40);
    EXPECT_EQ(c->data_flits, 8);
    EXPECT_TRUE(a->created == b->created && b->created == c->created);
    EXPECT_TRUE(a->dst == b->dst && b->dst == c->dst);
  }
}

// A message is measured once its last packet is in, whichever that is: packets of a message may
// take different VCs and overtake one another.
TEST(TrafficMeasurement, AMessageIsMeasuredToItsLastPacket) {
  TrafficMeasurement m(0, 1000);
  PacketRequest message{1, 16, 100};
  message.message_packets = 3;
  PacketRequest rest = message;
  PacketRequest single{3, 8, 120};
  m.created(message, 2);  // packets 0, 1, 2 of node 2
  rest.message_index = 1;
  m.created(rest, 2);
  rest.message_index = 2;
  m.created(rest, 2);
  m.created(single, 2);  // packet 3
  EXPECT_EQ(m.counts().created, 2U);
  const auto packet = [](std::uint64_t n, Cycle created, Cycle tail) {
    Packet p;
    p.header.src = 2;
    p.header.high_word = PacketLedger::sequence(2, n);
    p.created = created;
    p.tail_at = tail;
    p.message_packets = n < 3 ? 3 : 1;
    p.message_index = n < 3 ? static_cast<std::uint32_t>(n) : 0;
    return p;
  };
  m.delivered(packet(2, 100, 300), 1);
  m.delivered(packet(3, 120, 200), 3);  // the single one: measured at once
  EXPECT_EQ(m.latency().count(), 1U);
  m.delivered(packet(0, 100, 250), 1);
  EXPECT_EQ(m.measured_outstanding(), 1U);
  m.delivered(packet(1, 100, 280), 1);
  EXPECT_EQ(m.measured_outstanding(), 0U);
  EXPECT_EQ(m.latency().count(), 2U);
  EXPECT_EQ(m.latency().max(), 200U);  // from 100 to the latest tail, 300
}

// The probe source sends its probes at their cycles among its load, whose own messages stay the
// same: the requests come out in creation order, the probes tagged.
TEST(SyntheticTraffic, ProbesGoAmongTheLoadInCreationOrder) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  TrafficParams t;
  t.rate = 0.3;
  t.message_flits = 20;  // two packets
  const Destinations d(torus_topology, t, 1);
  SyntheticTraffic plain(5, d, t, 1);
  SyntheticTraffic probed(5, d, t, 1, ProbeSchedule{42, {0, 100, 101, 5000}});
  std::vector<PacketRequest> load, probes;
  Cycle last = 0;
  while (load.size() < 400) {
    const auto r = probed.next();
    ASSERT_TRUE(r);
    ASSERT_GE(r->created, last);
    last = r->created;
    (r->tag == kProbeTag ? probes : load).push_back(*r);
  }
  ASSERT_EQ(probes.size(), 8U);  // 4 probes of 2 packets
  for (std::size_t i = 0; i < probes.size(); i += 2) {
    EXPECT_EQ(probes[i].message_packets, 2U);
    EXPECT_EQ(probes[i + 1].message_index, 1U);
    EXPECT_EQ(probes[i].dst, 42U);
  }
  EXPECT_EQ(probes[2].created, 100U);
  EXPECT_EQ(probes[6].created, 5000U);
  for (const PacketRequest& l : load) {
    const auto p = plain.next();
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->created == l.created && p->dst == l.dst && p->data_flits == l.data_flits);
  }
}

// Probes are measured apart: not in the load's latency, offered or accepted flits.
TEST(TrafficMeasurement, ProbesAreMeasuredApart) {
  TrafficMeasurement m(0, 1000);
  PacketRequest load{1, 16, 100};
  PacketRequest probe{3, 16, 100};
  probe.tag = kProbeTag;
  m.created(load, 2);   // packet 0 of node 2
  m.created(probe, 2);  // packet 1
  EXPECT_EQ(m.counts().offered_flits, 17U);
  EXPECT_EQ(m.measured_outstanding(), 2U);
  Packet p;
  p.header.src = 2;
  p.header.data_flits = 16;
  p.created = 100;
  p.header.high_word = PacketLedger::sequence(2, 1);
  p.tail_at = 400;
  p.request_tag = kProbeTag;
  m.delivered(p, 3);
  p.header.high_word = PacketLedger::sequence(2, 0);
  p.tail_at = 150;
  p.request_tag = 0;
  m.delivered(p, 1);
  EXPECT_EQ(m.measured_outstanding(), 0U);
  EXPECT_EQ(m.counts().accepted_flits, 17U);
  ASSERT_EQ(m.latency().count(), 1U);
  EXPECT_EQ(m.latency().max(), 50U);
  ASSERT_EQ(m.probe_latency().count(), 1U);
  EXPECT_EQ(m.probe_latency().max(), 300U);
}

TEST(SyntheticTraffic, BimodalLengthsTakeTheirShare) {
  const Topology torus_topology(TopologyParams{.dims = {4, 4, 4}});
  TrafficParams t;
  t.rate = 0.2;
  t.bimodal_flits = {2, 16};
  t.bimodal_fraction = 0.3;
  const Destinations d(torus_topology, t, 1);
  SyntheticTraffic source(0, d, t, 1);
  int first = 0;
  double flits = 0;
  Cycle last = 0;
  for (int i = 0; i < kDraws; ++i) {
    const auto r = source.next();
    ASSERT_TRUE(r && (r->data_flits == 2 || r->data_flits == 16));
    first += r->data_flits == 2;
    flits += r->wire_flits();
    last = r->created;
  }
  EXPECT_NEAR(first / double(kDraws), 0.3, 4 * std::sqrt(0.3 * 0.7 / kDraws));
  // Offered load: the configured flits per cycle, over both lengths.
  EXPECT_NEAR(flits / static_cast<double>(last + 1), 0.2, 0.004);
}

}  // namespace
}  // namespace angara
