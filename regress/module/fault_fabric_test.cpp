// Routing around failed links and nodes through the whole machine, in AT, LT and LT with
// buffers: a lone packet takes the zero-load latency of the hops its route takes, to the cycle in
// every mode, a detour around a failed link more hops than the direct path; nothing is lost and
// nothing deadlocks at offered 1.0 on a faulty 4x4x4 (bubble, dateline, random failures); a
// collective over a tree moved off failed links stays exact with point-to-point traffic beside
// it. Each simulation runs in a child.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/core/zero_load.h"
#include "models/topology/torus.h"
#include "platform/experiments/collective_experiment.h"
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
using test::replies_in_every_mode;
using test::run_isolated;

Config faulty_4x4x4() {
  Config c;
  c.topology.dims = {4, 4, 4};
  c.faults.links = {{{0, 0, 0}, "+X"}, {{2, 1, 3}, "-Y"}, {{3, 3, 0}, "+Z"}};
  c.faults.nodes = {{1, 2, 1}};
  c.sim.progress = false;
  return c;
}

TEST(FaultFabric, ZeroLoadLatencyIsItsRoutesToTheCycleInEveryMode) {
  const Config c = faulty_4x4x4();
  const Torus geometry({4, 4, 4});
  // (0,0,0) -> (1,0,0) crosses the failed +X link: the detour is longer. (0,2,1) -> (2,2,1)
  // crosses the failed node (1,2,1): the way round the other side of the ring is as short.
  const std::vector<Probe> probes = lone_probes({{0, 1}, {24, 26}, {0, 63}, {5, 0}});
  const auto at = replies_in_every_mode(c, probes);
  ASSERT_EQ(at.size(), probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const int hops = at[i][1].get<int>();
    const int direct = geometry.min_hops(probes[i].src, probes[i].dst);
    if (i < 2) {
      EXPECT_GT(hops, direct) << i;
    } else {
      EXPECT_EQ(hops, direct) << i;
    }
    EXPECT_EQ(at[i][0].get<Cycle>(), zero_load_latency(c.fabric(), hops, 1 + probes[i].data_flits));
  }
}

// Every packet injected is delivered once, intact (the ledger inside the model throws otherwise),
// and the watchdog does not fire.
TEST(FaultFabric, NothingLostOrDeadlockedAtOfferedOne) {
  Config random = faulty_4x4x4();
  random.faults = {};
  random.faults.random_links = 0.05;
  random.faults.random_nodes = 0.03;
  Config dateline = faulty_4x4x4();
  dateline.router.deadlock = DeadlockScheme::Dateline;
  dateline.router.vcs = 4;
  for (const Config& base : {faulty_4x4x4(), random, dateline}) {
    for (const Config& c :
         {in_mode(base, SimMode::At), in_mode(base, SimMode::Lt), lt_with_buffers(base)}) {
      Config load = c;
      load.traffic.rate = 1.0;
      load.sim.warmup_cycles = 1000;
      load.sim.measure_cycles = 4000;
      const auto r = run_isolated([&] { return nlohmann::json(to_json(run_experiment(load))); });
      SCOPED_TRACE(r["config"]["router"].dump() + r["config"]["faults"].dump() +
                   r["config"]["sim"]["mode"].dump());
      EXPECT_GT(r["packets_injected_total"].get<std::uint64_t>(), 0U);
      EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
    }
  }
}

TEST(FaultFabric, ACollectiveOnATreeOffTheFailedLinksStaysExact) {
  const auto collective = [](bool faults) {
    Config c;
    c.topology.dims = {4, 4, 4};
    c.workload.kind = WorkloadKind::Collective;
    c.workload.op = CollectiveOp::Allreduce;
    c.workload.repetitions = 4;
    c.workload.background_rate = 0.2;
    c.sim.progress = false;
    // (0,0,0)'s +X link is on the default tree from (0,0,0): the root moves off it.
    if (faults) c.faults.links = {{{0, 0, 0}, "+X"}, {{1, 1, 1}, "+Y"}};
    return run_isolated([&] { return nlohmann::json(to_json(run_collective_experiment(c))); });
  };
  const auto clean = collective(false);
  const auto around = collective(true);
  EXPECT_GT(around["deliveries_checked"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(around["deliveries_checked"], clean["deliveries_checked"]);
  EXPECT_NE(around["root"], clean["root"]);
  EXPECT_GT(around["background_packets_delivered"].get<std::uint64_t>(), 0U);
}

}  // namespace
}  // namespace angara
