// The collective designs for large data with messages (collectives/software/chunked_collectives.h)
// and over the subnet (collectives/software/subnet_collectives.h) end to end. The experiment checks
// every result word against its reference (a wrong word is a ModelError); these tests add that
// every design of an operation delivers the same results as the others on the same inputs, at sizes
// that leave chunks uneven or empty and on node counts that are not powers of two, in both modes;
// that timing-only runs take the cycles of checked ones; and that a chain's segments pipeline.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/experiments/lt_validity.h"
#include "platform/experiments/software_experiment.h"
#include "regress/support/isolated.h"
#include "regress/support/software_config.h"

namespace angara {
namespace {

using test::run_isolated;
using A = SoftwareAlgorithm;

struct Outcome {
  Cycle first = 0;
  std::uint64_t checked = 0, digest = 0;
};

Outcome run(const Config& c) {
  const auto j = run_isolated([&] {
    const auto r = run_software_experiment(c);
    return nlohmann::json{{"first", r.completion.front()},
                          {"checked", r.results_checked},
                          {"digest", r.results_digest}};
  });
  return {j["first"].get<Cycle>(), j["checked"].get<std::uint64_t>(),
          j["digest"].get<std::uint64_t>()};
}

Config design(std::vector<int> dims, SimMode mode, CollectiveOp op, A algorithm, int bytes) {
  Config c = test::software_config(std::move(dims), mode, op, algorithm, 1);
  c.workload.bytes = bytes;
  c.workload.segment_bytes = 256;
  return c;
}

const char* mode_name(SimMode mode) {
  return mode == SimMode::At ? "AT" : "LT";
}

TEST(CollectiveDesigns, EveryDesignOfAnOperationDeliversTheSameResults) {
  const std::vector<std::pair<CollectiveOp, std::vector<A>>> designs = {
      {CollectiveOp::Broadcast,
       {A::Tree, A::Binomial, A::Chain, A::PipelinedTree, A::Ring, A::Subnet}},
      {CollectiveOp::Allreduce,
       {A::Tree, A::RecursiveDoubling, A::Ring, A::Rabenseifner, A::Dimensional, A::Subnet,
        A::RingSubnet}},
      {CollectiveOp::Allgather, {A::RecursiveDoubling, A::Ring, A::Subnet}},
      {CollectiveOp::Reduce, {A::Tree, A::Subnet}},
  };
  // 8 bytes: one word, fewer than the ranks (most chunks empty); 1000: 125 words, uneven chunks.
  const std::vector<std::pair<int, Reduction>> sizes = {
      {8, Reduction::Sum}, {1000, Reduction::Min}, {24576, Reduction::Max}};
  for (const std::vector<int>& dims :
       {std::vector<int>{2, 2, 2}, std::vector<int>{3, 2, 2}, std::vector<int>{3, 3, 3}}) {
    const int n = dims[0] * dims[1] * dims[2];
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      for (const auto& [op, algorithms] : designs) {
        for (const auto& [bytes, reduction] : sizes) {
          std::uint64_t digest = 0;
          for (A algorithm : algorithms) {
            SCOPED_TRACE(testing::Message()
                         << n << " nodes, " << mode_name(mode) << ", op " << static_cast<int>(op)
                         << ", " << bytes << " bytes, algorithm " << static_cast<int>(algorithm));
            Config c = design(dims, mode, op, algorithm, bytes);
            c.workload.reduction = reduction;
            const Outcome r = run(c);
            EXPECT_EQ(r.checked, op == CollectiveOp::Broadcast ? n - 1
                                 : op == CollectiveOp::Reduce  ? 1
                                                               : n);
            EXPECT_GT(r.first, 0u);
            if (digest == 0) digest = r.digest;
            EXPECT_EQ(r.digest, digest) << "a design's results differ from the first one's";
          }
        }
      }
    }
  }
}

// Each rank's chunk of the reduced vector, checked word by word by the experiment: by a ring on
// any number of ranks, by recursive halving on powers of two, with chunks uneven or empty.
TEST(CollectiveDesigns, AReduceScatterGivesEveryRankItsChunk) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (const auto& [dims, algorithms] :
         {std::pair{std::vector<int>{3, 2, 2}, std::vector<A>{A::Ring}},
          std::pair{std::vector<int>{4, 2, 2}, std::vector<A>{A::Ring, A::Rabenseifner}}}) {
      const int n = dims[0] * dims[1] * dims[2];
      for (int bytes : {8, 1000, 24576}) {
        for (A algorithm : algorithms) {
          Config c = design(dims, mode, CollectiveOp::ReduceScatter, algorithm, bytes);
          c.workload.reduction = Reduction::Max;
          EXPECT_EQ(run(c).checked, static_cast<std::uint64_t>(n))
              << mode_name(mode) << ", " << n << " nodes, " << bytes << " bytes";
        }
      }
    }
  }
}

TEST(CollectiveDesigns, ASourceAwayFromNodeZeroServesTheRanksAfterIt) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (A algorithm : {A::Chain, A::PipelinedTree, A::Ring}) {
      Config c = design({3, 3}, mode, CollectiveOp::Broadcast, algorithm, 4096);
      c.workload.source = {2, 1};
      EXPECT_EQ(run(c).checked, 8u) << mode_name(mode);
    }
  }
}

TEST(CollectiveDesigns, TimingOnlyRunsTakeTheCyclesOfCheckedOnes) {
  const std::vector<std::pair<CollectiveOp, A>> cases = {
      {CollectiveOp::Broadcast, A::Chain},
      {CollectiveOp::Broadcast, A::PipelinedTree},
      {CollectiveOp::Broadcast, A::Ring},
      {CollectiveOp::Allreduce, A::Ring},
      {CollectiveOp::Allreduce, A::Dimensional},
      {CollectiveOp::Allreduce, A::RingSubnet},
      {CollectiveOp::Allreduce, A::RecursiveDoubling},
      {CollectiveOp::Allreduce, A::Rabenseifner},
      {CollectiveOp::Allgather, A::Ring},
      {CollectiveOp::Allgather, A::RecursiveDoubling},
      {CollectiveOp::Broadcast, A::Subnet},
      {CollectiveOp::Allreduce, A::Subnet},
      {CollectiveOp::Reduce, A::Subnet},
      {CollectiveOp::Allgather, A::Subnet}};
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (const auto& [op, algorithm] : cases) {
      SCOPED_TRACE(testing::Message() << mode_name(mode) << ", op " << static_cast<int>(op)
                                      << ", algorithm " << static_cast<int>(algorithm));
      Config c = design({3, 2, 2}, mode, op, algorithm, 65536);
      const Outcome checked = run(c);
      c.workload.values = false;
      const Outcome timing = run(c);
      EXPECT_GT(checked.checked, 0u);
      EXPECT_EQ(timing.checked, 0u);
      EXPECT_EQ(timing.first, checked.first);
    }
  }
}

// A long allreduce over the subnet runs at its window's pace: 16 reduces per report of completed
// ones, every 4096 cycles unless 128 complete first. Prompter reports speed it up, a smaller
// window slows it down, in both modes alike.
TEST(CollectiveDesigns, TheSubnetsFlowControlKnobsSetALongAllreducesPace) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    Config c = design({4, 4}, mode, CollectiveOp::Allreduce, A::Subnet, 65536);
    const Cycle published = run(c).first;
    c.collective.report_cycles = 1024;
    const Cycle prompt = run(c).first;
    c.collective.report_cycles = 4096;
    c.collective.reduces_in_flight = 8;
    c.collective.credit_batch = 4;
    const Cycle narrow = run(c).first;
    EXPECT_LT(prompt * 5, published * 4)
        << mode_name(mode) << ": " << prompt << " against " << published;
    EXPECT_GT(narrow, published * 3 / 2)
        << mode_name(mode) << ": " << narrow << " against " << published;
  }
}

// Cut across several trees, a subnet broadcast, reduce or allreduce delivers what it does on one,
// and a long reduce or allreduce has each tree's window to itself.
TEST(CollectiveDesigns, TheSubnetCutAcrossTreesDeliversTheSameAndAllreducesFaster) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (CollectiveOp op :
         {CollectiveOp::Allreduce, CollectiveOp::Broadcast, CollectiveOp::Reduce}) {
      for (int bytes : {8, 1000, 24576}) {
        Config c = design({3, 2, 2}, mode, op, A::Subnet, bytes);
        c.collective.trees = 3;
        const Outcome one = run(c);
        c.workload.subnet_trees = 3;
        const Outcome three = run(c);
        EXPECT_EQ(three.digest, one.digest) << mode_name(mode) << ", " << bytes << " bytes";
        EXPECT_EQ(three.checked, one.checked);
      }
    }
    for (CollectiveOp op : {CollectiveOp::Allreduce, CollectiveOp::Reduce}) {
      Config c = design({4, 4}, mode, op, A::Subnet, 65536);
      c.collective.trees = 2;
      const Cycle one = run(c).first;
      c.workload.subnet_trees = 2;
      const Cycle two = run(c).first;
      EXPECT_LT(two * 10, one * 6) << mode_name(mode) << ", op " << static_cast<int>(op) << ": "
                                   << two << " against " << one;
    }
  }
}

// Partners two or more hops apart exchanging whole vectors: LT books the transit copies first and
// the processors' own copies wait behind them at their first router (AT's round robin would let
// them go), so LT's completion runs 4 to 5% long and its verdict says approximate; a design whose
// messages all go to neighbours meets nothing there and LT says ok.
TEST(CollectiveDesigns, LtSaysApproximateWhereTheProcessorsCopiesWaitBehindTransitOnes) {
  for (const auto& [algorithm, verdict] :
       {std::pair{A::Rabenseifner, LtVerdict::Approximate}, {A::Dimensional, LtVerdict::Ok}}) {
    const Config c = design({4, 4, 4}, SimMode::Lt, CollectiveOp::Allreduce, algorithm, 262144);
    const auto j = run_isolated([&] {
      const ContentionSummary s = run_software_experiment(c).contention;
      return nlohmann::json{{"verdict", static_cast<int>(lt_verdict(s, c.sim.lt_buffers))},
                            {"transit", s.all.queue()},
                            {"injected", s.injected.queue()}};
    });
    EXPECT_EQ(j["verdict"], static_cast<int>(verdict)) << j.dump();
    EXPECT_LE(j["transit"].get<double>(), kLtOk.mean_queue) << j.dump();
    if (verdict == LtVerdict::Approximate) {
      EXPECT_GT(j["injected"].get<double>(), kLtOk.injected_queue) << j.dump();
    }
  }
}

TEST(CollectiveDesigns, AChainsSegmentsPipelineTheBroadcast) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    // 8 ranks in a chain, 256 KB: whole, each rank waits for all of it before passing it on.
    Config c = design({2, 2, 2}, mode, CollectiveOp::Broadcast, A::Chain, 262144);
    c.workload.segment_bytes = 262144;
    const Cycle whole = run(c).first;
    c.workload.segment_bytes = 8192;
    const Cycle segmented = run(c).first;
    EXPECT_LT(2 * segmented, whole) << mode_name(mode) << ": whole " << whole << " cycles, in 8 KB "
                                    << "segments " << segmented;
  }
}

}  // namespace
}  // namespace angara
