// The AT fabric end to end: exact zero-load latency, conservation under load, the watchdog,
// steady-state behaviour across loads, determinism. Every simulation runs in a child process.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <systemc>
#include <vector>

#include "models/core/model_error.h"
#include "models/core/zero_load.h"
#include "models/topology/torus.h"
#include "platform/config/config_loader.h"
#include "platform/config/config_values.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/probe_run.h"
#include "platform/experiments/results_json.h"
#include "regress/support/isolated.h"
#include "regress/support/probe_replies.h"

namespace angara {

// A scheme as the config spells it, in a test's name (found by argument-dependent lookup, so
// outside the anonymous namespace).
void PrintTo(DeadlockScheme scheme, std::ostream* os) {  // NOLINT: GoogleTest's name
  *os << config_values::json_value(scheme).get<std::string>();
}

namespace {

using test::IsolatedError;
using test::run_isolated;

Config small_run(std::vector<int> dims, double rate, DeadlockScheme scheme) {
  Config c;
  c.topology.dims = std::move(dims);
  c.traffic.rate = rate;
  c.router.deadlock = scheme;
  c.sim.warmup_cycles = 1000;
  c.sim.measure_cycles = 4000;
  c.sim.progress = false;
  return c;
}

nlohmann::json run(const Config& config) {
  return run_isolated([&] {
    auto j = to_json(run_experiment(config));
    j.erase("wall_seconds");
    return nlohmann::json(j);
  });
}

// Probes far apart in time, so each crosses an empty network.
std::vector<Probe> spaced_probes(const Torus& torus, const std::vector<int>& sizes) {
  std::vector<Probe> probes;
  Cycle t = 0;
  const NodeId last = static_cast<NodeId>(torus.node_count() - 1);
  const std::vector<std::pair<NodeId, NodeId>> pairs = {
      {0, 1}, {0, last}, {last, 0}, {3, last / 2}, {last / 3, 2 * last / 3}, {5, 5 + last / 2}};
  for (auto [src, dst] : pairs) {
    for (int flits : sizes) {
      probes.push_back({src % (last + 1), {dst % (last + 1), flits, t}});
      t += 2000;
    }
  }
  return probes;
}

void expect_zero_load_formula(const Config& config) {
  const Torus torus(config.topology.dims);
  const auto probes = spaced_probes(torus, {1, 4, 16});
  const auto reply = test::probe_replies(config, probes);
  ASSERT_EQ(reply.size(), probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const auto& p = probes[i];
    if (p.src == p.packet.dst) continue;
    const int hops = torus.min_hops(p.src, p.packet.dst);
    EXPECT_EQ(reply[i][1].get<int>(), hops)
        << torus.format(p.src) << "->" << torus.format(p.packet.dst);
    EXPECT_EQ(reply[i][0].get<Cycle>(),
              zero_load_latency(config.fabric(), hops, 1 + p.packet.data_flits))
        << torus.format(p.src) << "->" << torus.format(p.packet.dst) << ", " << p.packet.data_flits
        << " data flits, " << hops << " hops";
  }
}

TEST(ZeroLoad, LatencyEqualsFormulaOn3DTorusWithTable1) {
  Config c;
  c.topology.dims = {4, 4, 4};
  // Table 1: 2 ns cycle, 40-cycle links, 17 flits in 15 cycles: 1 + 4*3 + 3*41 + 15 = 151 at 3
  // hops.
  EXPECT_EQ(zero_load_latency(c.fabric(), 3, 17), 151u);
  expect_zero_load_formula(c);
}

TEST(ZeroLoad, LatencyEqualsFormulaOn4DTorusWithOtherTiming) {
  Config c;
  c.topology.dims = {3, 4, 2, 5};
  c.router.pipeline_cycles = 5;
  c.router.clock_mhz = 400;
  c.link = {40.0, 100.0};
  c.endpoint = {40.0, 30.0};
  c.router.deadlock = DeadlockScheme::Dateline;
  expect_zero_load_formula(c);
}

TEST(ZeroLoad, LatencyEqualsFormulaOn2DTorusWithOtherDirectionOrder) {
  Config c;
  c.topology.dims = {5, 3};
  c.router.direction_order = {{1, true}, {0, false}, {1, false}, {0, true}};
  expect_zero_load_formula(c);
}

// Every load up to 1.0 finishes with every injected packet delivered once, intact, to its
// destination (the ledger inside the model throws otherwise).
class Conservation : public ::testing::TestWithParam<std::tuple<std::vector<int>, DeadlockScheme>> {
};

TEST_P(Conservation, NothingLostAtAnyLoad) {
  const auto& [dims, scheme] = GetParam();
  for (double rate : {0.1, 0.5, 1.0}) {
    const auto r = run(small_run(dims, rate, scheme));
    EXPECT_GT(r["packets_injected_total"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]) << "rate " << rate;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tori, Conservation,
    ::testing::Values(std::make_tuple(std::vector<int>{4, 4, 4}, DeadlockScheme::Bubble),
                      std::make_tuple(std::vector<int>{4, 4, 4}, DeadlockScheme::Dateline),
                      std::make_tuple(std::vector<int>{8, 8}, DeadlockScheme::Bubble),
                      std::make_tuple(std::vector<int>{8, 8}, DeadlockScheme::Dateline)));

// Bubble flow control at saturation with the least buffering it allows (one VC, room for two
// largest packets): rings fill up, yet nothing deadlocks.
TEST(Bubble, NeverDeadlocksAtSaturationWithMinimalBuffers) {
  for (const auto& dims :
       std::vector<std::vector<int>>{{4, 4}, {5, 3}, {3, 3, 3}, {2, 2, 2, 2}, {8}}) {
    Config c = small_run(dims, 1.0, DeadlockScheme::Bubble);
    c.router.vcs = 1;
    c.router.buffer_flits = 34;
    c.sim.watchdog_cycles = 4000;
    const auto r = run(c);
    EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
    EXPECT_LT(r["accepted_flits_per_node_cycle"].get<double>(), 0.9);  // it did saturate
  }
}

// Every tie rule (router.ties) at saturation, with bubble's least buffering and with the
// dateline, in AT and LT: nothing lost, nothing stuck; and a lone packet takes the zero-load
// latency whichever way round it goes.
TEST(Ties, EveryRuleIsDeadlockFreeAtSaturationAndExactAtZeroLoad) {
  for (TieRule ties : {TieRule::SourceParity, TieRule::DestinationParity, TieRule::Random}) {
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      for (DeadlockScheme scheme : {DeadlockScheme::Bubble, DeadlockScheme::Dateline}) {
        Config c = small_run({4, 4}, 1.0, scheme);
        c.router.ties = ties;
        c.sim.mode = mode;
        if (scheme == DeadlockScheme::Bubble) {
          c.router.vcs = 1;
          c.router.buffer_flits = 34;
        }
        c.sim.watchdog_cycles = 4000;
        SCOPED_TRACE(config_to_json(c)["router"].dump() + (mode == SimMode::At ? " AT" : " LT"));
        const auto r = run(c);
        EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
        EXPECT_LT(r["accepted_flits_per_node_cycle"].get<double>(), 0.9);  // it did saturate
      }
    }
    Config lone;
    lone.topology.dims = {4, 4};
    lone.router.ties = ties;
    expect_zero_load_formula(lone);
  }
}

// At light load LT takes AT's routes under every tie rule (the same hops for the same packets,
// random draws included) and its latency within 1%.
TEST(Ties, LtRoutesAsAtDoesUnderEveryRule) {
  for (TieRule ties : {TieRule::SourceParity, TieRule::DestinationParity, TieRule::Random}) {
    Config c = small_run({4, 4}, 0.05, DeadlockScheme::Dateline);
    c.router.ties = ties;
    SCOPED_TRACE(config_to_json(c)["router"].dump());
    c.sim.mode = SimMode::At;
    const auto at = run(c);
    c.sim.mode = SimMode::Lt;
    const auto lt = run(c);
    EXPECT_EQ(lt["mean_hops"], at["mean_hops"]);
    EXPECT_EQ(lt["packets_delivered"], at["packets_delivered"]);
    EXPECT_NEAR(lt["latency_cycles"]["mean"].get<double>(),
                at["latency_cycles"]["mean"].get<double>(),
                0.01 * at["latency_cycles"]["mean"].get<double>());
  }
}

TEST(Watchdog, NamesRouterPortAndVcWhenTheNetworkDeadlocks) {
  Config c = small_run({4, 4}, 1.0, DeadlockScheme::None);
  c.router.vcs = 1;
  c.router.buffer_flits = 17;
  c.sim.watchdog_cycles = 2000;
  try {
    run(c);
    FAIL() << "a 4x4 torus without deadlock avoidance at full load should deadlock";
  } catch (const IsolatedError& e) {
    EXPECT_EQ(e.type(), "ModelError");
    const std::string what = e.what();
    EXPECT_NE(what.find("deadlock"), std::string::npos) << what;
    EXPECT_NE(what.find("router ("), std::string::npos) << what;
    EXPECT_NE(what.find("input port"), std::string::npos) << what;
    EXPECT_NE(what.find(" VC "), std::string::npos) << what;
  }
}

// The deadlock of the test above, as a host's report settings see it.
Config deadlocking() {
  Config c = small_run({4, 4}, 1.0, DeadlockScheme::None);
  c.router.vcs = 1;
  c.router.buffer_flits = 17;
  c.sim.watchdog_cycles = 2000;
  return c;
}

TEST(Watchdog, ReportsThroughSystemCUnderItsMessageId) {
  // By default the report is only cached, and the model throws its ModelError.
  const auto quiet = run_isolated([] {
    try {
      run_experiment(deadlocking());
    } catch (const ModelError&) {
      const sc_core::sc_report* cached = sc_core::sc_report_handler::get_cached_report();
      return nlohmann::json{{"cached", cached ? cached->get_msg_type() : "none"}};
    }
    return nlohmann::json{{"cached", "no ModelError"}};
  });
  EXPECT_EQ(quiet["cached"], "/angara/deadlock");
  // A host that asks SystemC to throw gets the sc_report, its id and message.
  const auto thrown = run_isolated([] {
    sc_core::sc_report_handler::set_actions(report_id::kDeadlock, sc_core::SC_ERROR,
                                            sc_core::SC_THROW);
    try {
      run_experiment(deadlocking());
    } catch (const sc_core::sc_report& r) {
      return nlohmann::json{{"id", r.get_msg_type()}, {"message", r.get_msg()}};
    }
    return nlohmann::json{{"id", "no sc_report"}};
  });
  EXPECT_EQ(thrown["id"], "/angara/deadlock");
  EXPECT_NE(thrown.value("message", "").find("deadlock at cycle"), std::string::npos) << thrown;
}

TEST(SteadyState, LatencyGrowsWithLoadAndThroughputLevelsOff) {
  std::vector<double> latency, accepted, offered;
  for (double rate : {0.05, 0.2, 0.3, 0.7, 1.0}) {
    const auto r = run(small_run({8, 8}, rate, DeadlockScheme::Bubble));
    latency.push_back(r["latency_cycles"]["mean"]);
    accepted.push_back(r["accepted_flits_per_node_cycle"]);
    offered.push_back(r["offered_flits_per_node_cycle"]);
  }
  for (std::size_t i = 1; i < latency.size(); ++i) EXPECT_GT(latency[i], latency[i - 1]);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(accepted[i], offered[i], 0.05 * offered[i]);
  // Past saturation more offered load buys no more throughput.
  EXPECT_LT(accepted[4], 0.7 * offered[4]);
  EXPECT_NEAR(accepted[4], accepted[3], 0.1 * accepted[3]);
}

// A run saturated when its window ends ends there: the same window, the same verdict, in both
// modes, and far fewer cycles; one below saturation is unchanged.
TEST(Saturation, ARunSaturatedWhenItsWindowEndsSkipsTheDrainInBothModes) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (double rate : {1.0, 0.05}) {
      Config stops = small_run({8, 8}, rate, DeadlockScheme::Bubble);
      stops.sim.mode = mode;
      Config drains = stops;
      drains.sim.stop_when_saturated = false;
      nlohmann::json a = run(stops), b = run(drains);
      const std::string what = fmt::format("{} at {}", mode == SimMode::At ? "AT" : "LT", rate);
      if (rate < 0.5) {
        for (auto* j : {&a, &b}) j->erase("config");
        EXPECT_EQ(a, b) << what;
        EXPECT_FALSE(a.contains("drain_skipped")) << what;
        continue;
      }
      EXPECT_TRUE(a["saturated"].get<bool>()) << what;
      EXPECT_TRUE(b["saturated"].get<bool>()) << what;
      EXPECT_TRUE(a.value("drain_skipped", false)) << what;
      EXPECT_FALSE(b.contains("drain_skipped")) << what;
      for (const char* key : {"offered_flits_per_node_cycle", "accepted_flits_per_node_cycle"}) {
        EXPECT_EQ(a[key], b[key]) << what << ": " << key;
      }
      EXPECT_LT(a["sim_cycles"].get<double>(), 0.5 * b["sim_cycles"].get<double>()) << what;
    }
  }
}

TEST(Determinism, SameConfigAndSeedGiveIdenticalResults) {
  const Config c = small_run({4, 4, 4}, 0.4, DeadlockScheme::Bubble);
  const auto a = run(c), b = run(c);
  EXPECT_EQ(a.dump(), b.dump());
  Config other = c;
  other.sim.seed = 2;
  EXPECT_NE(run(other)["latency_cycles"].dump(), a["latency_cycles"].dump());
}

}  // namespace
}  // namespace angara
