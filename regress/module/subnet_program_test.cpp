// CPU programs driving the hardware collective subnet through their PCIe endpoints
// (workload.algorithm = "subnet"): the results are the hardware experiment's and the message
// algorithms' on the same inputs, the time includes both hosts' PCIe, AT agrees with LT at zero
// load, and the endpoint's window of 16 reduces per tree follows the router's credit reports.

#include <gtest/gtest.h>

#include <vector>

#include "models/node/collective_port.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/software_experiment.h"
#include "platform/machine/node_machine.h"
#include "regress/support/isolated.h"
#include "regress/support/software_config.h"

namespace angara {
namespace {

using test::run_isolated;

Config programs(std::vector<int> dims, SimMode mode, CollectiveOp op,
                SoftwareAlgorithm algorithm = SoftwareAlgorithm::Subnet) {
  Config c = test::software_config(std::move(dims), mode, op, algorithm, 3);
  c.workload.reduction = Reduction::Max;
  return c;
}

nlohmann::json run_programs(const Config& c) {
  return run_isolated([&] {
    const auto r = run_software_experiment(c);
    return nlohmann::json{{"first", r.completion.front()},
                          {"last", r.completion.back()},
                          {"checked", r.results_checked},
                          {"messages", r.messages},
                          {"digest", r.results_digest}};
  });
}

nlohmann::json run_endpoints(Config c) {
  c.workload.kind = WorkloadKind::Collective;
  return run_isolated([&] {
    const auto r = run_collective_experiment(c);
    return nlohmann::json{{"first", r.completion.front()}, {"digest", r.results_digest}};
  });
}

TEST(SubnetPrograms, ResultsEqualTheHardwareExperimentsAndNoMessageIsSent) {
  for (const auto& dims : std::vector<std::vector<int>>{{2, 2, 2}, {3, 3, 3}, {4, 4, 2, 2}}) {
    int n = 1;
    for (int d : dims) n *= d;
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      for (CollectiveOp op :
           {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
        SCOPED_TRACE(testing::Message() << n << " nodes, mode " << static_cast<int>(mode) << ", op "
                                        << static_cast<int>(op));
        Config c = programs(dims, mode, op);
        if (op == CollectiveOp::Reduce) {
          c.workload.destination.assign(dims.size(), 0);
          c.workload.destination[0] = c.workload.destination[1] = 1;
        }
        const auto r = run_programs(c);
        const int per_op = op == CollectiveOp::Broadcast ? n - 1
                           : op == CollectiveOp::Reduce  ? 1
                                                         : n;
        EXPECT_EQ(r["checked"], 3 * per_op);
        EXPECT_EQ(r["messages"], 0);
        EXPECT_EQ(r["digest"], run_endpoints(c)["digest"]);
      }
    }
  }
}

TEST(SubnetPrograms, AllgatherOverSeveralTreesEqualsRecursiveDoubling) {
  for (int trees : {1, 4, 16}) {
    Config c = programs({4, 4, 2}, SimMode::Lt, CollectiveOp::Allgather);
    c.collective.trees = trees;
    c.workload.payload_flits = 5;  // blocks of 80 bytes: offsets rounded to 16 still
    const auto subnet = run_programs(c);
    const auto doubling = run_programs(programs({4, 4, 2}, SimMode::Lt, CollectiveOp::Allgather,
                                                SoftwareAlgorithm::RecursiveDoubling));
    EXPECT_EQ(subnet["checked"], 3 * 32) << trees;
    Config same = c;
    same.workload.algorithm = SoftwareAlgorithm::RecursiveDoubling;
    EXPECT_EQ(subnet["digest"], run_programs(same)["digest"]) << trees;
    EXPECT_GT(doubling["first"].get<Cycle>(), 0u);
  }
}

// The program's time adds to the endpoint-to-endpoint time at least the PCIe latency on the way
// in and on the way out (300 ns = 150 cycles each); AT and LT agree at zero load.
TEST(SubnetPrograms, TimeIncludesBothHostsPcieAndAtEqualsLt) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Allreduce}) {
    const auto at = run_programs(programs({4, 4, 4}, SimMode::At, op));
    const auto lt = run_programs(programs({4, 4, 4}, SimMode::Lt, op));
    EXPECT_EQ(at["first"], lt["first"]) << static_cast<int>(op);
    EXPECT_EQ(at["first"], at["last"]);
    const auto endpoints = run_endpoints(programs({4, 4, 4}, SimMode::At, op));
    EXPECT_GE(at["first"].get<Cycle>(), endpoints["first"].get<Cycle>() + 2 * 150);
    // ... and it stays well below the message algorithm along the same tree.
    const auto tree = run_programs(programs({4, 4, 4}, SimMode::At, op, SoftwareAlgorithm::Tree));
    EXPECT_LT(2 * at["first"].get<Cycle>(), tree["first"].get<Cycle>());
  }
}

// 40 allreduces issued back to back: the endpoint sends 16, then waits for the router's credit
// reports before sending more; all complete and the last result is right.
TEST(SubnetPrograms, TheSixteenReduceWindowFollowsCreditReports) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    const auto r = run_isolated([&] {
      Config c = programs({2, 2, 2}, mode, CollectiveOp::Allreduce);
      NodeMachine machine(c);
      std::vector<std::int64_t> last(static_cast<std::size_t>(machine.nodes()));
      std::vector<Cycle> done(last.size());
      for (NodeId n = 0; n < static_cast<NodeId>(machine.nodes()); ++n) {
        machine.load(n, [](NodeMachine& m, NodeId node, std::int64_t& out, Cycle& at) -> Task {
          CollectivePort port(m.host(node));
          constexpr int kCount = 40;
          for (int k = 0; k < kCount; ++k) {
            const std::vector<std::int64_t> words = {k * 100 + static_cast<std::int64_t>(node), 0};
            co_await contribute(port, 0, ReduceOp{Reduction::Sum, true}, node, words);
          }
          co_await wait_results(port, 0, kCount);
          const auto result = co_await port.result(0, kCount - 1, 2);
          out = result[0];
          at = m.host(node).core().local_time();
        }(machine, n, last[n], done[n]));
      }
      machine.run();
      return nlohmann::json{{"last", last}, {"done", done}};
    });
    // Sum over 8 nodes of 3900 + node.
    for (const auto& v : r["last"]) EXPECT_EQ(v.get<std::int64_t>(), 8 * 3900 + 28);
    // The 17th reduce waited for a credit report (every 4096 cycles or 128 results).
    for (const auto& t : r["done"]) EXPECT_GT(t.get<Cycle>(), 4096u);
  }
}

}  // namespace
}  // namespace angara
