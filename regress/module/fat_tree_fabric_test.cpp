// The fat tree through the whole machine, in AT, LT and LT with buffers: a lone packet takes the
// documented zero-load latency over its nodes' fewest links, to the cycle in every mode; nothing
// is lost at any load up to 1.0; light uniform, local and hotspot traffic has the same mean
// latency in both modes; a config that asks a fat tree for the torus's features is refused,
// naming the key. Each simulation runs in a child.

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
using test::run_isolated;

Config fat_tree(int k, int levels) {
  Config c;
  c.topology.kind = TopologyKind::FatTree;
  c.topology.k = k;
  c.topology.levels = levels;
  c.sim.progress = false;
  return c;
}

nlohmann::json run(const Config& c) {
  return test::run_results(c);
}

TEST(FatTreeFabric, ZeroLoadLatencyIsTheFormulaToTheCycleInEveryMode) {
  // Same leaf, common level 1, the top level, and back.
  test::expect_zero_load_formula(fat_tree(4, 3), {{0, 1}, {2, 13}, {5, 60}, {63, 0}});
}

// Every load up to 1.0 ends with every injected packet delivered once, intact (the ledger inside
// the model throws otherwise).
TEST(FatTreeFabric, NothingLostAtAnyLoadInEitherMode) {
  for (const Config& base : {fat_tree(4, 3), fat_tree(2, 4), fat_tree(8, 2)}) {
    test::expect_nothing_lost_in_every_mode(base, {0.1, 0.5, 1.0}, 1000, 4000);
  }
}

TEST(FatTreeFabric, LightTrafficHasTheSameMeanLatencyInLtAsInAt) {
  struct Case {
    std::string name;
    TrafficPattern pattern;
    double hops;  // mean hops, when the pattern fixes them (else negative)
  };
  // Hosts on the leaves: within a leaf no link, to another leaf's subtree up and down.
  for (const Case& k : {Case{"uniform", TrafficPattern::Uniform, -1},
                        Case{"local within the leaf", TrafficPattern::Local, 0.0},
                        Case{"hotspot", TrafficPattern::Hotspot, -1},
                        Case{"bit_complement", TrafficPattern::BitComplement, 4.0}}) {
    SCOPED_TRACE(k.name);
    Config c = fat_tree(4, 3);
    c.traffic.rate = 0.1;
    c.traffic.pattern = k.pattern;
    c.traffic.local_rate = 1.0;
    c.traffic.local_distance = 1;
    c.traffic.hotspot_rate = 0.05;
    c.traffic.hotspot_node = {21};
    c.sim.measure_cycles = 20000;
    const auto at = run(in_mode(c, SimMode::At));
    const auto lt = run(lt_with_buffers(c));
    const double at_latency = at["latency_cycles"]["mean"].get<double>();
    const double lt_latency = lt["latency_cycles"]["mean"].get<double>();
    EXPECT_NEAR(lt_latency / at_latency, 1.0, 0.05) << "AT " << at_latency << ", LT " << lt_latency;
    EXPECT_EQ(lt["offered_flits_per_node_cycle"], at["offered_flits_per_node_cycle"]);
    if (k.hops >= 0) {
      EXPECT_DOUBLE_EQ(at["mean_hops"].get<double>(), k.hops);
    }
  }
}

TEST(FatTreeFabric, TheTorusFeaturesAreRefusedNamingTheKey) {
  const auto refused = [](Config c, const std::string& key) {
    test::expect_refused([&] { c.validate(); }, key);
  };
  Config c = fat_tree(4, 3);
  c.workload.kind = WorkloadKind::Collective;
  refused(c, "workload.kind");
  c = fat_tree(4, 3);
  c.collective.roots = {{3}};
  refused(c, "collective");
  c = fat_tree(4, 3);
  c.router.deadlock = DeadlockScheme::Dateline;
  refused(c, "router.deadlock");
  c = fat_tree(4, 3);
  c.sim.mode = SimMode::At;
  c.trace.nodes = {{0}};
  refused(c, "trace.nodes");
  c = fat_tree(4, 3);
  c.traffic.pattern = TrafficPattern::Local;
  c.traffic.local_distance = 4;
  refused(c, "traffic.local_distance");
  c = fat_tree(9, 2);
  refused(c, "topology.k");
}

}  // namespace
}  // namespace angara
