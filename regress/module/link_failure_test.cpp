// Links that fail during a run ([faults] fail_at_cycle), in AT, LT and LT with buffers: a packet
// already on the wire when its link fails arrives as if nothing happened, one that would start
// on it a cycle later goes round; under uniform traffic every packet injected is delivered once
// (the ledger inside the model checks each delivery) and nothing deadlocks, with one link and
// with several failing mid-run; a failure after the run's end changes nothing, one before the
// first packet is the run with the links failed from the start; at light load LT's mean latency
// stays within 5% of AT's across a failure; the same seed gives the same results. Each simulation
// runs in a child.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/core/zero_load.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/probe_replies.h"

namespace angara {
namespace {

using test::every_mode;
using test::in_mode;
using test::lt_with_buffers;
using test::probe_replies;
using test::replies_in_every_mode;
using test::run_isolated;

nlohmann::json run(const Config& c) {
  return run_isolated([&] { return nlohmann::json(to_json(run_experiment(c))); });
}

// What a run measured, without what names the run (its config, its wall time) and the count of
// rerouted packets, which only a run with fail_at_cycle writes.
nlohmann::json measured(nlohmann::json results) {
  for (const char* key : {"config", "wall_seconds", "packets_rerouted"}) results.erase(key);
  return results;
}

Config uniform(std::vector<int> dims, double rate) {
  Config c;
  c.topology.dims = std::move(dims);
  c.traffic.rate = rate;
  c.sim.warmup_cycles = 1000;
  c.sim.measure_cycles = 3000;
  c.sim.progress = false;
  return c;
}

// (0,0,0) -> (2,0,0) crosses (1,0,0)'s +X link on its second hop. The probe carries 16 data
// flits, so its 17 flits are on that link for S(17) cycles from its grant there.
TEST(LinkFailure, APacketOnTheWireArrivesOneThatWouldStartLaterGoesRound) {
  Config c;
  c.topology.dims = {4, 4, 4};
  c.faults.links = {{{1, 0, 0}, "+X"}};
  c.sim.progress = false;
  const ZeroLoad zero(c.fabric());
  const Cycle pipeline = static_cast<Cycle>(c.router.pipeline_cycles);
  // Created at cycle 0: its head in (0,0,0) after the injection channel, granted a pipeline later,
  // in (1,0,0) after the link, granted there a pipeline later.
  const Cycle grant = zero.local().latency + zero.local().serialization(1) + 2 * pipeline +
                      zero.link().latency + zero.link().serialization(1);
  const std::vector<Probe> probe = {{0, {2, 16, 0}}};
  const Cycle direct = zero_load_latency(c.fabric(), 2, 17);

  c.faults.fail_at_cycle = grant + 1;  // its head is on the link, its tail still to go
  const auto on_wire = replies_in_every_mode(c, probe);
  ASSERT_EQ(on_wire.size(), 1U);
  EXPECT_EQ(on_wire[0][1].get<int>(), 2);
  EXPECT_EQ(on_wire[0][0].get<Cycle>(), direct);

  c.faults.fail_at_cycle = grant;  // the link fails the cycle it would start
  const auto round = replies_in_every_mode(c, probe);
  ASSERT_EQ(round.size(), 1U);
  EXPECT_GT(round[0][1].get<int>(), 2);
  EXPECT_GT(round[0][0].get<Cycle>(), direct);
}

// The ledger inside the model throws on a packet lost, duplicated, misdelivered or corrupted,
// the watchdog on a deadlock, and a router on a packet starting on a failed link;
// packets_rerouted shows that the failure met traffic (in some mode at least: one link at light
// load may see no packet routed onto it before it failed and reaching it after).
TEST(LinkFailure, NothingLostOrDeadlockedWhenLinksFailMidRun) {
  Config dateline_8x8 = uniform({8, 8}, 0);
  dateline_8x8.router.deadlock = DeadlockScheme::Dateline;
  dateline_8x8.router.vcs = 4;
  std::vector<FaultParams> failures(2);
  failures[0].links = {{{1, 1}, "+X"}};  // (x, y): a 3D torus's at z = 1
  failures[1].links = {{{1, 1}, "+X"}, {{2, 3}, "-Y"}, {{0, 0}, "+Y"}};
  for (FaultParams& f : failures) f.fail_at_cycle = 2500;  // mid-way through the window
  for (const Config& machine : {uniform({4, 4, 4}, 0), uniform({8, 8}, 0), dateline_8x8}) {
    for (const FaultParams& failure : failures) {
      for (const double rate : {0.3, 1.0}) {
        Config c = machine;
        c.traffic.rate = rate;
        c.faults = failure;
        if (c.topology.dims.size() == 3) {
          for (auto& link : c.faults.links) link.node.push_back(1);
        }
        std::uint64_t rerouted = 0;
        for (const Config& mode : every_mode(c)) {
          const auto r = run(mode);
          SCOPED_TRACE(r["config"]["router"].dump() + r["config"]["faults"].dump() +
                       r["config"]["sim"]["mode"].dump() + " rate " + std::to_string(rate));
          EXPECT_GT(r["packets_injected_total"].get<std::uint64_t>(), 0U);
          EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
          rerouted += r["packets_rerouted"].get<std::uint64_t>();
          if (failure.links.size() > 1) {
            EXPECT_GT(r["packets_rerouted"].get<std::uint64_t>(), 0U);
          }
        }
        EXPECT_GT(rerouted, 0U);
      }
    }
  }
}

// The same config and seed give the same results, the packets rerouted too.
TEST(LinkFailure, ARunWithLinksFailingIsReproducible) {
  Config c = uniform({8, 8}, 1.0);
  c.faults.links = {{{1, 1}, "+X"}, {{2, 3}, "-Y"}, {{0, 0}, "+Y"}};
  c.faults.fail_at_cycle = 2500;
  for (const Config& mode : every_mode(c)) {
    const auto first = run(mode);
    SCOPED_TRACE(first["config"]["sim"].dump());
    EXPECT_GT(first["packets_rerouted"].get<std::uint64_t>(), 0U);
    auto again = run(mode);
    EXPECT_EQ(again["packets_rerouted"], first["packets_rerouted"]);
    EXPECT_EQ(measured(again), measured(first));
  }
}

// `failing` (links failing at some cycle) measures what `reference` does in every mode, and no
// packet is rerouted.
void expect_measures_the_same(const Config& failing, const Config& reference) {
  const std::vector<Config> failing_modes = every_mode(failing);
  const std::vector<Config> reference_modes = every_mode(reference);
  for (std::size_t i = 0; i < failing_modes.size(); ++i) {
    const auto r = run(failing_modes[i]);
    SCOPED_TRACE(r["config"]["sim"].dump());
    EXPECT_EQ(r["packets_rerouted"].get<std::uint64_t>(), 0U);
    EXPECT_EQ(measured(r), measured(run(reference_modes[i])));
  }
}

TEST(LinkFailure, AFailureAfterTheRunChangesNothing) {
  const Config clean = uniform({4, 4, 4}, 0.3);
  Config late = clean;
  late.faults.links = {{{1, 1, 1}, "+X"}, {{2, 3, 0}, "-Y"}};
  late.faults.fail_at_cycle = 1000000;
  expect_measures_the_same(late, clean);
}

// Links failing at cycle 1 have failed before any packet reaches a router (the injection channel
// takes a cycle at least): every packet is routed around them from its source, as with the links
// failed from the start (fail_at_cycle = 0, the same code as before the key existed), and none
// meets one.
TEST(LinkFailure, AFailureBeforeTheFirstPacketIsTheStaticFailure) {
  Config fixed = uniform({4, 4, 4}, 0.6);
  fixed.faults.links = {{{1, 1, 1}, "+X"}, {{2, 3, 0}, "-Y"}};
  Config first = fixed;
  first.faults.fail_at_cycle = 1;
  expect_measures_the_same(first, fixed);
}

// At light load LT's timing follows AT's, and so it does across a failure: the packets rerouted
// at the failure and the detours after it cost the same in both.
TEST(LinkFailure, LtLatencyWithinFivePercentOfAtAtLightLoad) {
  Config c = uniform({4, 4, 4}, 0.1);
  c.sim.measure_cycles = 6000;
  c.faults.random_links = 0.05;  // 10 of the 192 links
  c.faults.fail_at_cycle = 4000;
  const auto at = run(in_mode(c, SimMode::At));
  ASSERT_GT(at["packets_rerouted"].get<std::uint64_t>(), 0U);
  const double at_mean = at["latency_cycles"]["mean"].get<double>();
  for (const Config& lt : {in_mode(c, SimMode::Lt), lt_with_buffers(c)}) {
    const auto r = run(lt);
    SCOPED_TRACE(r["config"]["sim"].dump());
    EXPECT_GT(r["packets_rerouted"].get<std::uint64_t>(), 0U);
    EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
    EXPECT_LT(std::abs(r["latency_cycles"]["mean"].get<double>() / at_mean - 1), 0.05)
        << r["latency_cycles"]["mean"] << " against AT's " << at_mean;
  }
}

}  // namespace
}  // namespace angara
