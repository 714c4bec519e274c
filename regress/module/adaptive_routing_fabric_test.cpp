// Adaptive routing through the whole machine, in AT, LT and LT with buffers: a lone packet takes
// dimension order's zero-load latency, to the cycle in every mode; nothing is lost and nothing
// deadlocks at offered 1.0 (bubble and dateline escape); light traffic has the same mean latency
// in LT with buffers as in AT; in AT adaptive routing carries more than dimension order where the
// pattern loads one dimension's links (transpose) and on uniform traffic. Each simulation runs in
// a child.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/core/config_error.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/probe_replies.h"

namespace angara {
namespace {

using test::in_mode;
using test::lone_probes;
using test::lt_with_buffers;
using test::probe_replies;
using test::run_isolated;

Config torus(std::vector<int> dims, RoutingAlgorithm routing) {
  Config c;
  c.topology.dims = std::move(dims);
  c.router.routing = routing;
  c.sim.progress = false;
  return c;
}

nlohmann::json run(const Config& c) {
  return run_isolated([&] { return nlohmann::json(to_json(run_experiment(c))); });
}

TEST(AdaptiveRoutingFabric, ZeroLoadLatencyIsDimensionOrdersToTheCycleInEveryMode) {
  const std::vector<std::pair<NodeId, NodeId>> pairs{{0, 1}, {0, 63}, {21, 42}, {5, 0}};
  const auto at =
      test::expect_zero_load_formula(torus({4, 4, 4}, RoutingAlgorithm::Adaptive), pairs);
  EXPECT_EQ(probe_replies(in_mode(torus({4, 4, 4}, RoutingAlgorithm::DimensionOrder), SimMode::At),
                          lone_probes(pairs)),
            at);
}

// Every packet injected is delivered once, intact (the ledger inside the model throws otherwise),
// and the watchdog does not fire.
TEST(AdaptiveRoutingFabric, NothingLostOrDeadlockedAtOfferedOne) {
  Config dateline = torus({4, 4}, RoutingAlgorithm::Adaptive);
  dateline.router.deadlock = DeadlockScheme::Dateline;
  dateline.router.vcs = 3;
  for (const Config& base : {torus({4, 4, 4}, RoutingAlgorithm::Adaptive),
                             torus({8, 8}, RoutingAlgorithm::Adaptive), dateline}) {
    for (const Config& c : test::every_mode(base)) {
      for (TrafficPattern pattern : {TrafficPattern::Uniform, TrafficPattern::Transpose}) {
        Config load = c;
        load.traffic.rate = 1.0;
        load.traffic.pattern = pattern;
        load.sim.warmup_cycles = 1000;
        load.sim.measure_cycles = 4000;
        const auto r = run(load);
        SCOPED_TRACE(r["config"]["topology"].dump() + r["config"]["router"].dump() +
                     r["config"]["traffic"]["pattern"].dump());
        EXPECT_GT(r["packets_injected_total"].get<std::uint64_t>(), 0U);
        EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
      }
    }
  }
}

TEST(AdaptiveRoutingFabric, LightTrafficHasTheSameMeanLatencyInLtAsInAt) {
  for (TrafficPattern pattern : {TrafficPattern::Uniform, TrafficPattern::Transpose}) {
    for (const std::vector<int>& dims : {std::vector<int>{8, 8}, std::vector<int>{4, 4, 4}}) {
      Config c = torus(dims, RoutingAlgorithm::Adaptive);
      c.traffic.rate = 0.1;
      c.traffic.pattern = pattern;
      c.sim.measure_cycles = 20000;
      const auto at = run(in_mode(c, SimMode::At));
      const auto lt = run(lt_with_buffers(c));
      const double at_latency = at["latency_cycles"]["mean"].get<double>();
      const double lt_latency = lt["latency_cycles"]["mean"].get<double>();
      EXPECT_NEAR(lt_latency / at_latency, 1.0, 0.05)
          << at["config"]["topology"].dump() << at["config"]["traffic"]["pattern"].dump() << ": AT "
          << at_latency << ", LT " << lt_latency;
    }
  }
}

// Accepted throughput at offered 1.0 in AT, adaptive against dimension order on 8x8.
TEST(AdaptiveRoutingFabric, CarriesMoreThanDimensionOrderInAt) {
  const auto accepted = [](RoutingAlgorithm routing, TrafficPattern pattern) {
    Config c = in_mode(torus({8, 8}, routing), SimMode::At);
    c.traffic.rate = 1.0;
    c.traffic.pattern = pattern;
    c.sim.measure_cycles = 10000;
    return run(c)["accepted_flits_per_node_cycle"].get<double>();
  };
  const double transpose_do = accepted(RoutingAlgorithm::DimensionOrder, TrafficPattern::Transpose);
  const double transpose_ad = accepted(RoutingAlgorithm::Adaptive, TrafficPattern::Transpose);
  EXPECT_GT(transpose_ad, 2 * transpose_do) << transpose_do << " -> " << transpose_ad;
  const double uniform_do = accepted(RoutingAlgorithm::DimensionOrder, TrafficPattern::Uniform);
  const double uniform_ad = accepted(RoutingAlgorithm::Adaptive, TrafficPattern::Uniform);
  EXPECT_GT(uniform_ad, uniform_do) << uniform_do << " -> " << uniform_ad;
}

TEST(AdaptiveRoutingFabric, AFatTreeRefusesIt) {
  Config c;
  c.topology.kind = TopologyKind::FatTree;
  c.topology.k = 4;
  c.topology.levels = 2;
  c.router.routing = RoutingAlgorithm::Adaptive;
  try {
    c.validate();
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "router.routing") << e.what();
  }
}

}  // namespace
}  // namespace angara
