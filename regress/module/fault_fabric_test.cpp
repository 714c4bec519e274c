// Routing around failed links and nodes through the whole machine, in AT, LT and LT with
// buffers: a lone packet takes the zero-load latency of the hops its route takes, to the cycle in
// every mode, a detour around a failed link more hops than the direct path; nothing is lost and
// nothing deadlocks at offered 1.0 on a faulty 4x4x4 (bubble, dateline, random failures); a
// collective over a tree moved off failed links stays exact with point-to-point traffic beside
// it; collectives over trees rebuilt around failed nodes stay exact in every mode. Each
// simulation runs in a child.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collectives/subnet/tree.h"
#include "models/core/zero_load.h"
#include "models/topology/faults.h"
#include "models/topology/torus.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/tree_plan.h"
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
    const int direct = geometry.min_hops(probes[i].src, probes[i].packet.dst);
    if (i < 2) {
      EXPECT_GT(hops, direct) << i;
    } else {
      EXPECT_EQ(hops, direct) << i;
    }
    EXPECT_EQ(at[i][0].get<Cycle>(),
              zero_load_latency(c.fabric(), hops, 1 + probes[i].packet.data_flits));
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
    for (const Config& c : test::every_mode(base)) {
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

TEST(FaultFabric, ACollectiveOnATreeAroundTheFailedLinksStaysExact) {
  const auto collective = [](bool faults) {
    Config c;
    c.topology.dims = {4, 4, 4};
    c.workload.kind = WorkloadKind::Collective;
    c.workload.op = CollectiveOp::Allreduce;
    c.workload.repetitions = 4;
    c.workload.background_rate = 0.2;
    c.sim.progress = false;
    // (0,0,0)'s +X link is on the default tree from (0,0,0): the tree goes round it.
    if (faults) c.faults.links = {{{0, 0, 0}, "+X"}, {{1, 1, 1}, "+Y"}};
    return run_isolated([&] { return nlohmann::json(to_json(run_collective_experiment(c))); });
  };
  const auto clean = collective(false);
  const auto around = collective(true);
  EXPECT_GT(around["deliveries_checked"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(around["deliveries_checked"], clean["deliveries_checked"]);
  EXPECT_EQ(around["root"], clean["root"]);
  EXPECT_GT(around["background_packets_delivered"].get<std::uint64_t>(), 0U);
}

// Failed nodes on the subnet's trees: every tree is rebuilt around them (the validator passes it,
// no failed node is a member, every live node is a processor), and broadcast, reduce and
// allreduce stay exact (the workload checks every delivery against the inputs) on every live
// node, the same in AT, LT and LT with buffers.
TEST(FaultFabric, CollectivesOnTreesAroundFailedNodesStayExactInEveryMode) {
  Config base;
  base.topology.dims = {4, 4, 4};
  base.workload.kind = WorkloadKind::Collective;
  base.workload.repetitions = 3;
  base.workload.all_trees = true;
  base.collective.trees = 4;
  base.sim.progress = false;
  // (1,2,1) and (0,0,2) lie inside default trees; (3,3,3) is a default root.
  base.faults.nodes = {{1, 2, 1}, {0, 0, 2}, {3, 3, 3}};
  base.faults.links = {{{0, 0, 0}, "+X"}};

  const Torus torus({4, 4, 4});
  const FaultMap faults(torus, base.faults, base.sim.seed);
  const auto trees = plan_trees(base, torus);
  ASSERT_EQ(trees.size(), 4U);
  for (const Tree& tree : trees) {
    SCOPED_TRACE(tree.id);
    EXPECT_NO_THROW(validate_tree(torus, tree));
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
      EXPECT_EQ(tree.rows[n].member && tree.rows[n].pe, !faults.node_failed(n)) << n;
      EXPECT_FALSE(faults.node_failed(n) && tree.rows[n].member) << n;
    }
  }
  for (const CollectiveOp op :
       {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
    Config c = base;
    c.workload.op = op;
    std::vector<nlohmann::json> results;
    for (const Config& m : test::every_mode(c)) {
      results.push_back(
          run_isolated([&] { return nlohmann::json(to_json(run_collective_experiment(m))); }));
      SCOPED_TRACE(results.back()["config"]["sim"].dump() + results.back()["op"].dump());
      EXPECT_EQ(results.back()["pe_nodes"].get<int>(), 4 * (64 - 3));
      const int per_op = op == CollectiveOp::Broadcast ? 61 - 1
                         : op == CollectiveOp::Reduce  ? 1
                                                       : 61;
      EXPECT_EQ(results.back()["deliveries_checked"].get<int>(), 4 * 3 * per_op);
    }
    // The same values reached the same processors in every mode.
    EXPECT_EQ(results[0]["results_digest"], results[1]["results_digest"]);
    EXPECT_EQ(results[0]["results_digest"], results[2]["results_digest"]);
  }
}

}  // namespace
}  // namespace angara
