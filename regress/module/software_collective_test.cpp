// Software collectives end to end: CPU programs exchanging messages through host, PCIe endpoint
// and torus. The experiment checks every participant's result against its own reference (a wrong
// word is a ModelError), so a run that returns is a correct run; these tests add the counts, the
// cases that need care (non-power-of-two node counts, a source or destination away from the
// root, transit nodes), and the comparison with the hardware subnet on the same inputs.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collectives/software/software_collectives.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/software_experiment.h"
#include "platform/machine/node_machine.h"
#include "regress/support/isolated.h"
#include "regress/support/software_config.h"

namespace angara {
namespace {

using test::IsolatedError;
using test::run_isolated;

Config software(std::vector<int> dims, SimMode mode, CollectiveOp op,
                SoftwareAlgorithm algorithm = SoftwareAlgorithm::Tree) {
  return test::software_config(std::move(dims), mode, op, algorithm, 2);
}

nlohmann::json summary(const std::vector<Cycle>& completion, std::uint64_t checked,
                       std::uint64_t digest) {
  return {{"first", completion.front()},
          {"checked", checked},
          {"digest", digest},
          {"ops", completion.size()}};
}

nlohmann::json run_software(const Config& c) {
  return run_isolated([&] {
    const auto r = run_software_experiment(c);
    auto j = summary(r.completion, r.results_checked, r.results_digest);
    j["participants"] = r.participants;
    return j;
  });
}

nlohmann::json run_hardware(Config c) {
  c.workload.kind = WorkloadKind::Collective;
  return run_isolated([&] {
    const auto r = run_collective_experiment(c);
    return summary(r.completion, r.deliveries, r.results_digest);
  });
}

int node_count(const std::vector<int>& dims) {
  int n = 1;
  for (int k : dims) n *= k;
  return n;
}

struct Case {
  CollectiveOp op;
  SoftwareAlgorithm algorithm;
  int checked_per_op;  // from the node count: -1 all but one, 0 all, 1 one
};

// 27 nodes: neither binomial nor recursive doubling has a power of two to lean on.
const std::vector<std::vector<int>> kTori = {{2, 2, 2}, {3, 3, 3}, {4, 4, 2, 2}};

TEST(SoftwareCollective, EveryAlgorithmGivesCorrectResultsOnSeveralToriInBothModes) {
  const std::vector<Case> cases = {
      {CollectiveOp::Broadcast, SoftwareAlgorithm::Tree, -1},
      {CollectiveOp::Reduce, SoftwareAlgorithm::Tree, 1},
      {CollectiveOp::Allreduce, SoftwareAlgorithm::Tree, 0},
      {CollectiveOp::Broadcast, SoftwareAlgorithm::Binomial, -1},
      {CollectiveOp::Allgather, SoftwareAlgorithm::RecursiveDoubling, 0},
  };
  for (const auto& dims : kTori) {
    const int n = node_count(dims);
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      for (const Case& k : cases) {
        SCOPED_TRACE(testing::Message()
                     << n << " nodes, mode " << static_cast<int>(mode) << ", op "
                     << static_cast<int>(k.op) << ", algorithm " << static_cast<int>(k.algorithm));
        Config c = software(dims, mode, k.op, k.algorithm);
        c.workload.reduction = Reduction::Min;
        const auto r = run_software(c);
        const int per_op = k.checked_per_op == 1 ? 1 : n + k.checked_per_op;
        EXPECT_EQ(r["checked"], 2 * per_op);
        EXPECT_EQ(r["participants"], n);
        EXPECT_GT(r["first"].get<Cycle>(), 0u);
      }
    }
  }
}

TEST(SoftwareCollective, BroadcastFromANodeOtherThanTheRoot) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    // Tree: up from the far corner to the root first. Binomial: ranks relative to the source.
    Config tree = software({3, 3, 3}, mode, CollectiveOp::Broadcast);
    tree.workload.source = {2, 2, 2};
    EXPECT_EQ(run_software(tree)["checked"], 2 * 26);
    Config binomial =
        software({3, 3, 3}, mode, CollectiveOp::Broadcast, SoftwareAlgorithm::Binomial);
    binomial.workload.source = {1, 2, 0};
    EXPECT_EQ(run_software(binomial)["checked"], 2 * 26);
  }
}

TEST(SoftwareCollective, ReduceToANodeOtherThanTheRoot) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    Config c = software({3, 3, 3}, mode, CollectiveOp::Reduce);
    c.workload.destination = {1, 2, 1};
    c.workload.reduction = Reduction::Sum;
    const auto r = run_software(c);
    EXPECT_EQ(r["checked"], 2);
    EXPECT_EQ(r["digest"], run_hardware(c)["digest"]);
  }
}

TEST(SoftwareCollective, TransitNodesForwardButBringNothing) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
    Config c = software({3, 3, 3}, SimMode::At, op);
    c.collective.transit = {{1, 0, 0}, {2, 1, 0}};  // (1,0,0) has children in the tree
    c.workload.source = {2, 2, 0};
    const auto r = run_software(c);
    EXPECT_EQ(r["participants"], 27);  // the transit nodes forward
    const int pe = 25;
    const int per_op = op == CollectiveOp::Broadcast ? pe - 1 : op == CollectiveOp::Reduce ? 1 : pe;
    EXPECT_EQ(r["checked"], 2 * per_op);
    // The same numbers as the hardware, which leaves the transit nodes' inputs out too.
    EXPECT_EQ(r["digest"], run_hardware(c)["digest"]) << static_cast<int>(op);
  }
}

TEST(SoftwareCollective, ABroadcastSourceMustBeAProcessorOfTheTree) {
  Config c = software({2, 2, 2}, SimMode::At, CollectiveOp::Broadcast);
  c.collective.transit = {{1, 0, 0}};
  c.workload.source = {1, 0, 0};
  try {
    run_software(c);
    FAIL() << "a transit source was accepted";
  } catch (const IsolatedError& e) {
    EXPECT_EQ(e.type(), "ConfigError");
    EXPECT_NE(std::string(e.what()).find("workload.source"), std::string::npos) << e.what();
  }
}

TEST(SoftwareCollective, SameResultsAsTheHardwareSubnet) {
  for (const std::vector<int>& dims : {std::vector<int>{2, 2, 2}, std::vector<int>{4, 4, 4}}) {
    for (CollectiveOp op :
         {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
      std::vector<std::uint64_t> digests;
      for (Reduction reduction : {Reduction::Sum, Reduction::Min, Reduction::Max}) {
        Config c = software(dims, SimMode::Lt, op);
        c.workload.reduction = reduction;
        c.workload.repetitions = 3;
        const auto sw = run_software(c);
        const auto hw = run_hardware(c);
        EXPECT_EQ(sw["digest"], hw["digest"]) << dims.size() << "D op " << static_cast<int>(op)
                                              << " reduction " << static_cast<int>(reduction);
        EXPECT_EQ(sw["checked"], hw["checked"]);
        digests.push_back(sw["digest"]);
      }
      // A digest that says something: different reductions give different results.
      if (op != CollectiveOp::Broadcast) {
        EXPECT_NE(digests[0], digests[1]);
        EXPECT_NE(digests[1], digests[2]);
      }
    }
  }
}

TEST(SoftwareCollective, SlowerThanTheHardwareSubnet) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Allreduce}) {
      Config c = software({2, 2, 2}, mode, op);
      c.workload.payload_flits = 16;
      const auto sw = run_software(c)["first"].get<Cycle>();
      const auto hw = run_hardware(c)["first"].get<Cycle>();
      // Every hop costs the software an ejection, two PCIe crossings and the library's calls.
      EXPECT_GT(sw, 2 * hw) << "op " << static_cast<int>(op) << ": software " << sw
                            << " cycles, hardware " << hw;
    }
  }
}

// The Mailbox alone: data longer than one message comes back whole, and messages from a sender
// nobody is waiting for yet are kept aside and handed out later in their own order.
std::vector<std::byte> pattern(std::size_t bytes, int seed) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = static_cast<std::byte>((i * 7 + seed) & 0xff);
  return v;
}

TEST(Mailbox, GathersLongDataAndKeepsOtherSendersAsideInTheirOrder) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    const auto r = run_isolated([&] {
      Config c;
      c.topology.dims = {4, 4};
      c.sim.mode = mode;
      c.sim.progress = false;
      NodeMachine m(c);
      std::vector<std::vector<std::byte>> got(3);
      // Node 1 sends late and long (10000 bytes: three messages); node 2 early, in two sends,
      // the second longer than one message.
      // (Coroutine lambdas without captures: a closure's captures would not outlive the call.)
      auto late = [](Host& host) -> Task {
        Mailbox mb(host.channel(0));
        co_await host.core().compute(20000);
        const auto data = pattern(10000, 1);
        co_await mb.send(0, data);
      };
      auto early = [](Host& host) -> Task {
        Mailbox mb(host.channel(0));
        const auto first = pattern(300, 2), second = pattern(5000, 3);
        co_await mb.send(0, first);
        co_await mb.send(0, second);
      };
      auto receiver = [](Host& host, std::vector<std::vector<std::byte>>& out) -> Task {
        Mailbox mb(host.channel(0));
        co_await mb.receive_from(1, 10000, out[0]);  // node 2's messages arrive meanwhile
        co_await mb.receive_from(2, 200, out[1]);    // part of node 2's first message ...
        co_await mb.receive_from(2, 5100, out[2]);   // ... its rest and all of its second
      };
      m.load(1, late(m.host(1)));
      m.load(2, early(m.host(2)));
      m.load(0, receiver(m.host(0), got));
      m.run();
      auto second = pattern(300, 2);
      const auto third = pattern(5000, 3);
      std::vector<std::byte> want2(second.begin() + 200, second.end());
      want2.insert(want2.end(), third.begin(), third.end());
      return nlohmann::json{
          {"long", got[0] == pattern(10000, 1)},
          {"part", got[1] == std::vector<std::byte>(second.begin(), second.begin() + 200)},
          {"rest", got[2] == want2},
          {"messages", m.messages_delivered()}};
    });
    EXPECT_TRUE(r["long"]);
    EXPECT_TRUE(r["part"]);
    EXPECT_TRUE(r["rest"]);
    EXPECT_EQ(r["messages"], 3 + 1 + 2);
  }
}

}  // namespace
}  // namespace angara
