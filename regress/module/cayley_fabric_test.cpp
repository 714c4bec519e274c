// The Cayley graphs through the whole machine, in AT, LT and LT with buffers: a lone packet takes
// the documented zero-load latency over its nodes' fewest links, to the cycle in every mode;
// nothing is lost at any load up to 1.0 under every deadlock scheme the graph takes (a
// circulant: bubble and dateline; star and pancake graphs: hop classes), the watchdog on; light
// uniform traffic has the same mean latency in both modes; a config that asks a Cayley graph for
// the torus's features, or a scheme it cannot use, is refused, naming the key. Each simulation
// runs in a child.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/config_refusal.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/probe_replies.h"
#include "regress/support/run_results.h"

namespace angara {
namespace {

using test::in_mode;
using test::lt_with_buffers;

Config circulant(int nodes, std::vector<int> steps, DeadlockScheme scheme) {
  Config c;
  c.topology.kind = TopologyKind::Cayley;
  c.topology.order = nodes;
  c.topology.generators = std::move(steps);
  c.router.deadlock = scheme;
  c.sim.progress = false;
  return c;
}

Config permutation(CayleyGroup group, int nodes, int vcs) {
  Config c;
  c.topology.kind = TopologyKind::Cayley;
  c.topology.group = group;
  c.topology.order = nodes;
  c.router.deadlock = DeadlockScheme::HopClasses;
  c.router.vcs = vcs;
  c.sim.progress = false;
  return c;
}

TEST(CayleyFabric, StarAndPancakeZeroLoadLatencyIsTheFormulaToTheCycleInEveryMode) {
  for (const CayleyGroup group : {CayleyGroup::Star, CayleyGroup::Pancake}) {
    test::expect_zero_load_formula(permutation(group, 120, 8),
                                   {{0, 1}, {7, 100}, {119, 0}, {33, 65}});
  }
}

TEST(CayleyFabric, StarAndPancakeLoseNothingAtAnyLoadUnderHopClassesInEitherMode) {
  for (const Config& base :
       {permutation(CayleyGroup::Star, 24, 4), permutation(CayleyGroup::Star, 120, 8),
        permutation(CayleyGroup::Pancake, 120, 8)}) {
    test::expect_nothing_lost_in_every_mode(base, {0.1, 0.5, 1.0}, 1000, 4000);
  }
}

TEST(CirculantFabric, ZeroLoadLatencyIsTheFormulaToTheCycleInEveryMode) {
  // A neighbour, a run across a wrap link, three generators, the farthest offset.
  for (const DeadlockScheme scheme : {DeadlockScheme::Bubble, DeadlockScheme::Dateline}) {
    test::expect_zero_load_formula(circulant(64, {1, 4, 16}, scheme),
                                   {{0, 1}, {62, 3}, {5, 26}, {63, 31}});
  }
}

// Every load up to 1.0 ends with every injected packet delivered once, intact (the ledger inside
// the model throws otherwise, the watchdog if the fabric stops).
TEST(CirculantFabric, NothingLostAtAnyLoadUnderEitherSchemeInEitherMode) {
  for (const DeadlockScheme scheme : {DeadlockScheme::Bubble, DeadlockScheme::Dateline}) {
    for (const Config& base : {circulant(16, {1, 4}, scheme), circulant(27, {1, 3, 9}, scheme),
                               circulant(31, {2, 5, 13}, scheme)}) {
      test::expect_nothing_lost_in_every_mode(base, {0.1, 0.5, 1.0}, 1000, 4000);
    }
  }
}

TEST(CayleyFabric, LightTrafficHasTheSameMeanLatencyInLtAsInAt) {
  for (const Config& graph :
       {circulant(64, {1, 4, 16}, DeadlockScheme::Bubble), permutation(CayleyGroup::Star, 120, 8),
        permutation(CayleyGroup::Pancake, 120, 8)}) {
    for (const TrafficPattern pattern : {TrafficPattern::Uniform, TrafficPattern::Hotspot}) {
      Config c = graph;
      c.traffic.rate = 0.1;
      c.traffic.pattern = pattern;
      c.traffic.hotspot_rate = 0.05;
      c.traffic.hotspot_node = {21};
      c.sim.measure_cycles = 20000;
      const auto at = test::run_results(in_mode(c, SimMode::At));
      const auto lt = test::run_results(lt_with_buffers(c));
      const double at_latency = at["latency_cycles"]["mean"].get<double>();
      const double lt_latency = lt["latency_cycles"]["mean"].get<double>();
      EXPECT_NEAR(lt_latency / at_latency, 1.0, 0.05)
          << "AT " << at_latency << ", LT " << lt_latency;
      EXPECT_EQ(lt["offered_flits_per_node_cycle"], at["offered_flits_per_node_cycle"]);
      EXPECT_DOUBLE_EQ(lt["mean_hops"].get<double>(), at["mean_hops"].get<double>());
    }
  }
}

TEST(CirculantFabric, TheTorusFeaturesAreRefusedNamingTheKey) {
  const auto refused = [](Config c, const std::string& key, const std::string& says = "cayley") {
    test::expect_refused([&] { c.validate(); }, key, says);
  };
  const Config base = circulant(64, {1, 4, 16}, DeadlockScheme::Bubble);
  Config c = base;
  c.workload.kind = WorkloadKind::Collective;
  refused(c, "workload.kind");
  c = base;
  c.collective.roots = {{3}};
  refused(c, "collective");
  c = base;
  c.router.routing = RoutingAlgorithm::Adaptive;
  refused(c, "router.routing");
  c = base;
  c.router.ties = TieRule::Random;
  refused(c, "router.ties");
  c = base;
  c.faults.random_links = 0.01;
  refused(c, "faults");
  c = base;
  c.traffic.pattern = TrafficPattern::Local;
  refused(c, "traffic.pattern");
  c = permutation(CayleyGroup::Star, 120, 8);
  c.router.deadlock = DeadlockScheme::Bubble;
  refused(c, "router.deadlock", "use \"hop_classes\" with router.vcs = 8 (its diameter, 6 hops");
  c = permutation(CayleyGroup::Star, 720, 4);
  refused(c, "router.vcs", "at least 7 (the graph's diameter)");
  c = permutation(CayleyGroup::Pancake, 24, 4);
  c.router.vcs = 6;
  refused(c, "router.vcs", "1, 2, 4 or 8 VCs");
  c = Config{};
  c.router.deadlock = DeadlockScheme::HopClasses;
  refused(c, "router.deadlock", "a torus uses");
}

}  // namespace
}  // namespace angara
