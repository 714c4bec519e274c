// Wormhole switching (router.switching = "wormhole") through the whole machine, in AT, LT and LT
// with buffers: lone packets take the same latency to the cycle in every mode, for several hop
// counts, packet lengths and buffers, and a packet that fits in a buffer takes cut-through's
// formula, and the same under the bubble as under the dateline; nothing is lost at offered 0.1,
// 0.5 and 1.0 with buffers of 4 flits and 17-flit packets; the watchdog stays silent on 4x4x4 and
// 8x8 with the dateline, and with the bubble (the worm bubble, models/router/ring_budget.h), at
// offered 1.0 over 20,000 cycles; small buffers carry less than cut-through's big ones (printed);
// LT with buffers keeps AT's mean latency on light traffic; and the combinations wormhole refuses
// name their keys. Each simulation runs in a child.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/core/config_error.h"
#include "models/core/zero_load.h"
#include "models/topology/torus.h"
#include "platform/experiments/experiment.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/probe_replies.h"
#include "regress/support/run_results.h"

namespace angara {
namespace {

using test::in_mode;
using test::lt_with_buffers;
using test::probe_replies;
using test::replies_in_every_mode;
using test::run_isolated;

Config wormhole(std::vector<int> dims, int buffer_flits) {
  Config c;
  c.topology.dims = std::move(dims);
  c.router.switching = Switching::Wormhole;
  c.router.deadlock = DeadlockScheme::Dateline;
  c.router.buffer_flits = buffer_flits;
  c.sim.progress = false;
  return c;
}

Config fat_tree(int levels) {
  Config c;
  c.topology.kind = TopologyKind::FatTree;
  c.topology.k = 4;
  c.topology.levels = levels;
  c.router.switching = Switching::Wormhole;
  c.router.buffer_flits = 4;
  c.sim.progress = false;
  return c;
}

nlohmann::json run(const Config& c) {
  return test::run_results(c);
}

// Probes of 2, 5 and 17 flits over 1, 2, 3 and 6 hops of a 4x4x4 torus, each alone.
std::vector<Probe> probes() {
  std::vector<Probe> out;
  Cycle t = 0;
  for (NodeId dst : {1, 5, 21, 42}) {
    for (int data_flits : {1, 4, 16}) {
      out.push_back({0, {dst, data_flits, t}});
      t += 3000;
    }
  }
  return out;
}

TEST(WormholeFabric, ZeroLoadLatencyIsTheSameInEveryMode) {
  const std::vector<Probe> lone = probes();
  const Torus geometry({4, 4, 4});
  std::vector<nlohmann::json> by_buffer;
  for (int buffer : {2, 4, 8, 16, 17, 64}) {
    SCOPED_TRACE(buffer);
    const Config c = wormhole({4, 4, 4}, buffer);
    const auto at = replies_in_every_mode(c, lone);
    ASSERT_EQ(at.size(), lone.size());
    for (std::size_t i = 0; i < lone.size(); ++i) {
      const int hops = geometry.min_hops(lone[i].src, lone[i].packet.dst);
      const int flits = 1 + lone[i].packet.data_flits;
      EXPECT_EQ(at[i][1].get<int>(), hops);
      const Cycle formula = zero_load_latency(c.fabric(), hops, flits);
      // A packet that fits in the buffer goes as with cut-through; a longer one waits for
      // credits on its way (a 4-flit buffer does not cover the 80 ns link's credit loop).
      if (flits <= buffer) {
        EXPECT_EQ(at[i][0].get<Cycle>(), formula) << flits << " flits, " << hops << " hops";
      } else {
        EXPECT_GT(at[i][0].get<Cycle>(), formula) << flits << " flits, " << hops << " hops";
      }
      if (!by_buffer.empty()) {  // more buffer never makes a lone packet slower
        EXPECT_LE(at[i][0].get<Cycle>(), by_buffer.back()[i][0].get<Cycle>());
      }
    }
    by_buffer.push_back(at);
  }
  // With whole packets in every buffer, wormhole is cut-through to the cycle.
  Config vct = wormhole({4, 4, 4}, 64);
  vct.router.switching = Switching::Vct;
  EXPECT_EQ(probe_replies(in_mode(vct, SimMode::At), lone), by_buffer.back());
  std::printf(
      "17 flits over 6 hops, zero load: buffers 2/4/8/16/17 flits: %lld/%lld/%lld/%lld/%lld "
      "cycles\n",
      static_cast<long long>(by_buffer[0][11][0].get<Cycle>()),
      static_cast<long long>(by_buffer[1][11][0].get<Cycle>()),
      static_cast<long long>(by_buffer[2][11][0].get<Cycle>()),
      static_cast<long long>(by_buffer[3][11][0].get<Cycle>()),
      static_cast<long long>(by_buffer[4][11][0].get<Cycle>()));
}

TEST(WormholeFabric, ZeroLoadLatencyOnAFatTreeIsTheSameInEveryMode) {
  const auto at = replies_in_every_mode(fat_tree(3), test::lone_probes({{0, 1}, {0, 5}, {0, 63}}));
  EXPECT_EQ(at.size(), 6U);
}

// Every packet injected is delivered once, intact (the ledger inside the model throws
// otherwise), and the watchdog does not fire, with 4-flit buffers and 17-flit packets.
TEST(WormholeFabric, NothingLostWithBuffersSmallerThanAPacket) {
  EXPECT_EQ(run(wormhole({4, 4}, 4))["config"]["router"]["switching"], "wormhole");
  for (const Config& base : {wormhole({4, 4, 4}, 4), wormhole({8, 8}, 4), fat_tree(2)}) {
    test::expect_nothing_lost_in_every_mode(base, {0.1, 0.5, 1.0}, 500, 2000);
  }
}

// The SKIF network's scheme: wormhole under the bubble. Rings of 4 keep one buffer empty, so a
// 17-flit packet must fit packed in 3: buffers of 6 flits; rings of 8, 5 or more: of 4.
Config worm_bubble(std::vector<int> dims, int buffer_flits) {
  Config c = wormhole(std::move(dims), buffer_flits);
  c.router.deadlock = DeadlockScheme::Bubble;
  return c;
}

// Three failed links of a 4x4x4 torus: a detour's second leg runs on VCs of its own, so on rings
// of its own.
Config with_detours(Config c) {
  c.faults.links = {{{0, 0, 0}, "+X"}, {{1, 2, 3}, "-Y"}, {{3, 3, 0}, "+Z"}};
  c.router.vcs = 4;
  return c;
}

// A lone packet meets no other in its rings: the worm bubble times it as the dateline does, to
// the cycle, in AT, LT and LT with buffers.
TEST(WormholeFabric, ZeroLoadLatencyUnderTheBubbleIsTheDatelinesInEveryMode) {
  const std::vector<Probe> lone = probes();
  EXPECT_EQ(replies_in_every_mode(worm_bubble({4, 4, 4}, 6), lone),
            probe_replies(in_mode(wormhole({4, 4, 4}, 6), SimMode::At), lone));
}

TEST(WormholeFabric, NothingLostUnderTheBubble) {
  for (const Config& base : {worm_bubble({4, 4, 4}, 6), worm_bubble({8, 8}, 4),
                             with_detours(worm_bubble({4, 4, 4}, 6))}) {
    test::expect_nothing_lost_in_every_mode(base, {0.1, 0.5, 1.0}, 500, 2000);
  }
}

// 20,000 measured cycles at offered 1.0 (and the drain after them) without a deadlock report,
// in AT and in LT with buffers, under the dateline and under the bubble.
TEST(WormholeFabric, WatchdogSilentAtOfferedOneWithTheDatelineAndTheBubble) {
  const std::vector<Config> machines{wormhole({4, 4, 4}, 4), wormhole({8, 8}, 4),
                                     worm_bubble({4, 4, 4}, 6), worm_bubble({8, 8}, 4),
                                     with_detours(worm_bubble({4, 4, 4}, 6))};
  for (const Config& machine : machines) {
    for (const Config& c : {in_mode(machine, SimMode::At), lt_with_buffers(machine)}) {
      Config load = c;
      load.traffic.rate = 1.0;
      load.sim.warmup_cycles = 1000;
      load.sim.measure_cycles = 20000;
      const auto r = run(load);
      SCOPED_TRACE(r["config"]["topology"].dump() + r["config"]["sim"]["mode"].dump() +
                   r["config"]["router"]["deadlock"].dump());
      EXPECT_GE(r["sim_cycles"].get<Cycle>(), 21000U);
      EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
    }
  }
}

// Without a deadlock scheme wormhole deadlocks under load, and the watchdog says where: the
// scheme is what keeps the runs above alive.
TEST(WormholeFabric, WithoutADeadlockSchemeTheWatchdogFires) {
  Config c = in_mode(wormhole({4, 4}, 4), SimMode::At);
  c.router.deadlock = DeadlockScheme::None;
  c.traffic.rate = 1.0;
  c.sim.measure_cycles = 20000;
  const std::string error = run_isolated([&]() -> nlohmann::json {
    try {
      run_experiment(c);
      return "no error";
    } catch (const std::exception& e) {
      return e.what();
    }
  });
  EXPECT_NE(error.find("waits since cycle"), std::string::npos) << error;
}

// Under the bubble the rings' counts (ring_budget.h, rule 2) are what keeps wormhole alive: a ring
// VC taken only when empty (rule 1) is not enough, and 4x4 deadlocks at offered 1.0 without them.
TEST(WormholeFabric, UnderTheBubbleWithoutTheRingCountsTheWatchdogFires) {
  Config c = in_mode(worm_bubble({4, 4}, 6), SimMode::At);
  c.traffic.rate = 1.0;
  c.sim.measure_cycles = 20000;
  const auto error = [&](bool counts) {
    return run_isolated([&]() -> nlohmann::json {
             if (!counts) setenv("ANGARA_TEST_NO_RING_COUNTS", "1", 1);
             try {
               run_experiment(c);
               return "no error";
             } catch (const std::exception& e) {
               return e.what();
             }
           })
        .get<std::string>();
  };
  EXPECT_EQ(error(true), "no error");
  const std::string without = error(false);
  EXPECT_NE(without.find("waits since cycle"), std::string::npos) << without;
}

double accepted_at_one(Config c) {
  c = in_mode(c, SimMode::At);
  c.traffic.rate = 1.0;
  c.sim.measure_cycles = 10000;
  return run(c)["accepted_flits_per_node_cycle"].get<double>();
}

TEST(WormholeFabric, SmallBuffersCarryLessThanCutThroughsBigOnes) {
  Config vct = wormhole({4, 4, 4}, 64);
  vct.router.switching = Switching::Vct;
  const double big = accepted_at_one(vct);
  const double same = accepted_at_one(wormhole({4, 4, 4}, 64));
  const double small = accepted_at_one(wormhole({4, 4, 4}, 4));
  const double medium = accepted_at_one(wormhole({4, 4, 4}, 16));
  std::printf(
      "4x4x4 dateline, accepted at offered 1.0 (AT): vct 64 flits %.3f, wormhole 64 "
      "flits %.3f, 16 flits %.3f, 4 flits %.3f\n",
      big, same, medium, small);
  EXPECT_EQ(same, big);  // every packet fits: the same grants
  EXPECT_LT(medium, big);
  EXPECT_LT(small, medium);
}

// At 30% of AT's accepted load at offered 1.0, LT with buffers is within 5% of AT's mean latency.
TEST(WormholeFabric, LightTrafficHasTheSameMeanLatencyInLtWithBuffersAsInAt) {
  for (int buffer : {4, 8, 16}) {
    Config c = wormhole({4, 4, 4}, buffer);
    c.traffic.rate = 0.3 * accepted_at_one(c);
    c.sim.measure_cycles = 40000;
    const auto at = run(in_mode(c, SimMode::At));
    const auto lt = run(lt_with_buffers(c));
    const double at_latency = at["latency_cycles"]["mean"].get<double>();
    const double lt_latency = lt["latency_cycles"]["mean"].get<double>();
    std::printf(
        "4x4x4 wormhole %d flits at offered %.4f: mean latency AT %.1f, LT with buffers "
        "%.1f (%+.1f%%)\n",
        buffer, c.traffic.rate, at_latency, lt_latency, 100.0 * (lt_latency / at_latency - 1.0));
    EXPECT_NEAR(lt_latency / at_latency, 1.0, 0.05) << buffer << " flits";
  }
}

std::string refused_key(Config c) {
  try {
    c.validate();
  } catch (const ConfigError& e) {
    return e.key() + ": " + e.what();
  }
  return "accepted";
}

TEST(WormholeFabric, RefusesWhatNeedsCutThroughNamingTheKeys) {
  const auto starts_with = [](const std::string& s, const std::string& key) {
    return s.rfind(key + ":", 0) == 0;
  };
  // Under the bubble a largest packet must fit packed in all but one buffer of the shortest ring.
  const std::string b = refused_key(worm_bubble({4, 8}, 5));
  EXPECT_TRUE(starts_with(b, "router.buffer_flits")) << b;
  EXPECT_NE(b.find("at least 6 flits"), std::string::npos) << b;
  EXPECT_NE(b.find("router.switching"), std::string::npos) << b;
  EXPECT_EQ(refused_key(worm_bubble({4, 8}, 6)), "accepted");
  Config circulant = worm_bubble({4, 4}, 6);
  circulant.topology.kind = TopologyKind::Cayley;
  circulant.topology.order = 64;
  circulant.topology.generators = {1, 8};
  const std::string cb = refused_key(circulant);
  EXPECT_TRUE(starts_with(cb, "router.deadlock")) << cb;

  Config adaptive = wormhole({4, 4}, 4);
  adaptive.router.routing = RoutingAlgorithm::Adaptive;
  adaptive.router.vcs = 3;
  const std::string a = refused_key(adaptive);
  EXPECT_TRUE(starts_with(a, "router.routing")) << a;
  EXPECT_NE(a.find("router.switching"), std::string::npos) << a;

  const std::string tiny = refused_key(wormhole({4, 4}, 1));
  EXPECT_TRUE(starts_with(tiny, "router.buffer_flits")) << tiny;
  EXPECT_EQ(refused_key(wormhole({4, 4}, 2)), "accepted");

  Config trains = wormhole({4, 4}, 4);
  trains.sim.train_packets = 4;
  EXPECT_TRUE(starts_with(refused_key(trains), "sim.train_packets"));
  Config stats = wormhole({4, 4}, 4);
  stats.stats.network = true;
  EXPECT_TRUE(starts_with(refused_key(stats), "stats.network"));
}

}  // namespace
}  // namespace angara
