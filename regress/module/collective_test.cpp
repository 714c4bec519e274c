// The collective subnet end to end: every broadcast copy and every reduce result is checked by
// the workload as it arrives (a wrong, missing or duplicated delivery is a ModelError); these
// tests run the operations on several tori, with transit nodes, in both modes.
// Built again as collective_rtl_test (ANGARA_RTL_REDUCER_IN, label rtl): every AT run then runs
// with the RTL Reducer too (docs/RTL.md), checked and driving, and its results must equal the
// C++ model's exactly; and as collective_vcup_rtl_test (ANGARA_RTL_VCUP_IN) the same with the
// RTL VCUp beside every router.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::IsolatedError;
using test::run_isolated;

Config collective(std::vector<int> dims, CollectiveOp op, SimMode mode) {
  Config c;
  c.topology.dims = std::move(dims);
  c.workload.kind = WorkloadKind::Collective;
  c.workload.op = op;
  c.workload.repetitions = 3;
  c.sim.mode = mode;
  c.sim.progress = false;
  return c;
}

nlohmann::json run_one(const Config& c) {
  return run_isolated([&] {
    auto j = to_json(run_collective_experiment(c));
    j.erase("wall_seconds");
    return nlohmann::json(j);
  });
}

// `c` again with an RTL block in (`block` of RtlParams, checked or driving): its results must
// equal the model's, apart from the checked counts under `checked_key`, and the checks must have
// seen work.
template <typename Check>
void same_with_rtl(const Config& c, const nlohmann::json& model, BlockImpl RtlParams::*block,
                   BlockImpl impl, const char* checked_key, const char* what, Check check) {
  if (c.sim.mode != SimMode::At) return;
  Config with_rtl = c;
  with_rtl.rtl.*block = impl;
  nlohmann::json rtl = run_one(with_rtl);
  check(rtl[checked_key]);
  nlohmann::json same = model;
  for (auto* j : {&rtl, &same}) {
    j->erase("config");
    j->erase(checked_key);
  }
  EXPECT_EQ(rtl, same) << what << " changed the results";
}

nlohmann::json run(const Config& c) {
  const nlohmann::json model = run_one(c);
  [[maybe_unused]] const bool reduces = c.workload.op != CollectiveOp::Broadcast;
#ifdef ANGARA_RTL_REDUCER_IN
  for (BlockImpl impl : {BlockImpl::Check, BlockImpl::Drive}) {
    same_with_rtl(c, model, &RtlParams::reducer, impl, "rtl_reducer_checked",
                  impl == BlockImpl::Check ? "the RTL Reducer checked" : "the RTL Reducer driving",
                  [&](const nlohmann::json& checked) {
                    if (reduces) {
                      EXPECT_GT(checked["results"].get<int>(), 0)
                          << "the RTL Reducer handed off nothing";
                    }
                  });
  }
#endif
#ifdef ANGARA_RTL_VCUP_IN
  for (BlockImpl impl : {BlockImpl::Check, BlockImpl::Drive}) {
    same_with_rtl(
        c, model, &RtlParams::vcup, impl, "rtl_vcup_checked",
        impl == BlockImpl::Check ? "the RTL VCUp checked" : "the RTL VCUp driving",
        [&](const nlohmann::json& checked) {
          if (reduces) {
            EXPECT_GT(checked["packets"].get<int>(), 0) << "no packet went through an RTL VCUp";
          }
          EXPECT_EQ(checked["packets"], checked["frees"]) << "packets left in an RTL VCUp";
        });
  }
#endif
  return model;
}

std::vector<int> far_corner(const std::vector<int>& dims) {
  std::vector<int> c;
  c.reserve(dims.size());
  for (int k : dims) c.push_back(k - 1);
  return c;
}

const std::vector<std::vector<int>> kTori = {{2, 2, 2}, {3, 3, 3}, {5, 3}, {4, 4, 4, 2}};

TEST(Broadcast, ReachesEveryProcessorButItsSourceOnceFromTheRootAndFromAnotherNodeWithTransit) {
  for (const auto& dims : kTori) {
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      for (bool from_root : {true, false}) {
        Config c = collective(dims, CollectiveOp::Broadcast, mode);
        if (!from_root) c.workload.source = far_corner(dims);
        std::vector<int> transit(dims.size(), 0);  // (1,0,...): a transit node with children
        transit[0] = 1;
        c.collective.transit = {transit};
        const auto r = run(c);
        const int nodes = r["nodes"];
        EXPECT_EQ(r["pe_nodes"], nodes - 1);
        EXPECT_EQ(r["deliveries_checked"], 3 * (nodes - 2));
        EXPECT_GT(r["completion_cycles"]["min"].get<Cycle>(), 0u);
      }
    }
  }
}

TEST(Broadcast, TransitNodesForwardButDoNotReceive) {
  Config c = collective({4, 4, 4, 2}, CollectiveOp::Broadcast, SimMode::At);
  c.collective.transit = {{1, 0, 0, 0}, {2, 1, 0, 0}, {3, 3, 3, 1}};
  c.workload.source = {1, 2, 3, 1};
  const auto r = run(c);
  EXPECT_EQ(r["pe_nodes"], 128 - 3);
  EXPECT_EQ(r["deliveries_checked"], 3 * (128 - 3 - 1));
}

TEST(Reduce, ExactSumMinMaxOfRandomInputsToTheDestinationAndToEveryone) {
  for (const auto& dims : std::vector<std::vector<int>>{{3, 3, 3}, {4, 4, 4, 2}}) {
    for (CollectiveOp op : {CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
      for (Reduction red : {Reduction::Sum, Reduction::Min, Reduction::Max}) {
        for (SimMode mode : {SimMode::At, SimMode::Lt}) {
          Config c = collective(dims, op, mode);
          c.workload.reduction = red;
          c.workload.destination = far_corner(dims);
          c.collective.transit = {{1, 1, 1}};
          if (dims.size() == 4) c.collective.transit = {{1, 1, 1, 1}};
          const auto r = run(c);
          const int pe = r["pe_nodes"];
          EXPECT_EQ(pe, r["nodes"].get<int>() - 1);
          EXPECT_EQ(r["deliveries_checked"], op == CollectiveOp::Reduce ? 3 : 3 * pe);
        }
      }
    }
  }
}

// Every payload length, 1 to 16 flits, each with another operation and reduction: a block that
// counts flits in 4 bits, or mixes up where a short payload ends, fails where 16 flits pass.
TEST(Reduce, EveryPayloadLengthFromOneToSixteenFlits) {
  for (int flits = 1; flits <= kMaxDataFlits; ++flits) {
    const CollectiveOp op = flits % 2 == 1 ? CollectiveOp::Reduce : CollectiveOp::Allreduce;
    const Reduction red = std::array{Reduction::Sum, Reduction::Min, Reduction::Max}[flits % 3];
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      Config c = collective({3, 3}, op, mode);
      c.workload.payload_flits = flits;
      c.workload.reduction = red;
      const auto r = run(c);
      EXPECT_EQ(r["pe_nodes"], 9);
      EXPECT_EQ(r["deliveries_checked"], op == CollectiveOp::Reduce ? 3 : 3 * 9) << flits;
    }
  }
}

TEST(Reduce, MoreThanSixteenInFlightOnOneTreeStallOnCreditsAndAllComplete) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    Config c = collective({4, 4}, CollectiveOp::Allreduce, mode);
    c.workload.overlap = true;
    c.workload.repetitions = 40;
    const auto r = run(c);
    EXPECT_EQ(r["operations"], 40);
    EXPECT_EQ(r["deliveries_checked"], 40 * 16);
    // The 17th reduce waits for the first credit report (4096 cycles after the first result).
    EXPECT_GT(r["completion_cycles"]["max"].get<Cycle>(), 4096u);
    EXPECT_LT(r["completion_cycles"]["min"].get<Cycle>(), 4096u);
  }
}

// Operations started at once end where the run ends, or before: the run's simulated time covers
// the latest completion (LT once reported 0 cycles here while operations ended thousands later).
TEST(Collectives, OverlappingOperationsEndWithinTheRun) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      Config c = collective({4, 4, 4}, op, mode);
      c.workload.overlap = true;
      c.workload.repetitions = 20;
      const auto r = run(c);
      EXPECT_GT(r["sim_cycles"].get<Cycle>(), 0u);
      EXPECT_GE(r["sim_cycles"].get<Cycle>(), r["completion_cycles"]["max"].get<Cycle>());
    }
  }
}

// Sixteen overlapping trees, every one running its operations at once, 20 in flight per tree:
// their VCDown/VCUp ring segments chain into whole rings, which the bubble rule keeps moving.
TEST(Collectives, SixteenTreesActiveAtOnce) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Allreduce}) {
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      Config c = collective({4, 4, 4}, op, mode);
      c.collective.trees = 16;
      c.workload.all_trees = true;
      c.workload.overlap = true;
      c.workload.repetitions = 20;
      const auto r = run(c);
      EXPECT_EQ(r["trees"], 16);
      EXPECT_EQ(r["pe_nodes"], 16 * 64);
      EXPECT_EQ(r["deliveries_checked"], 20 * 16 * (op == CollectiveOp::Broadcast ? 63 : 64));
    }
  }
}

// Uniform point-to-point traffic offered at full load (past saturation) beside the collectives:
// every operation still completes, correctly, and every background packet is delivered (the
// ledger checks them), with no deadlock.
TEST(Collectives, CompleteBesideSaturatingPointToPointTraffic) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Allreduce}) {
    for (SimMode mode : {SimMode::At, SimMode::Lt}) {
      Config c = collective({4, 4, 4}, op, mode);
      c.workload.background_rate = 1.0;
      c.workload.repetitions = 2;
      const auto r = run(c);
      EXPECT_EQ(r["deliveries_checked"], 2 * (op == CollectiveOp::Broadcast ? 63 : 64));
      EXPECT_GT(r["background_packets_delivered"].get<std::uint64_t>(), 1000u);
    }
  }
}

TEST(LtVersusAt, CollectivesCompleteAtTheSameZeroLoadTimes) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
    for (const auto& dims : kTori) {
      Config c = collective(dims, op, SimMode::At);
      c.workload.source = far_corner(dims);
      c.workload.destination = far_corner(dims);
      c.workload.repetitions = 1;
      const auto at = run(c);
      c.sim.mode = SimMode::Lt;
      const auto lt = run(c);
      EXPECT_EQ(at["per_operation_cycles"], lt["per_operation_cycles"])
          << at["op"] << " on " << at["nodes"] << " nodes";
    }
  }
}

// collective.reducer_result_cycles: each result handed off that much later, in both modes alike.
// (run_one: the shipped RTL hands off with its last flit, so it is not run beside.)
TEST(LtVersusAt, AReducerOutputPipelineDelaysAllreducesEquallyInBothModes) {
  for (const auto& dims : kTori) {
    Config c = collective(dims, CollectiveOp::Allreduce, SimMode::At);
    c.workload.repetitions = 1;
    const auto at = run_one(c);
    c.collective.reducer_result_cycles = 3;
    const auto at_pipelined = run_one(c);
    c.sim.mode = SimMode::Lt;
    const auto lt_pipelined = run_one(c);
    EXPECT_EQ(at_pipelined["per_operation_cycles"], lt_pipelined["per_operation_cycles"])
        << at["nodes"] << " nodes";
    EXPECT_GT(at_pipelined["completion_cycles"]["max"].get<double>(),
              at["completion_cycles"]["max"].get<double>() + 2)
        << at["nodes"] << " nodes";
    EXPECT_EQ(at_pipelined["results_digest"], at["results_digest"]);
  }
}

#ifdef ANGARA_RTL_VCUP_IN
TEST(CollectiveConfig, TheRtlVcUpIsRefusedInLtAndForCyclesItCannotHold) {
  Config c = collective({4, 4}, CollectiveOp::Allreduce, SimMode::Lt);
  c.rtl.vcup = BlockImpl::Check;
  const auto refused = [](const Config& bad, const std::string& key, const std::string& rule) {
    try {
      run_one(bad);
      ADD_FAILURE() << key << ": should be refused";
    } catch (const IsolatedError& e) {
      EXPECT_EQ(e.type(), "ConfigError");
      const std::string what = e.what();
      EXPECT_NE(what.find(key), std::string::npos) << what;
      EXPECT_NE(what.find(rule), std::string::npos) << what;
    }
  };
  refused(c, "'rtl.vcup' = \"check\"", "AT only");
  c.sim.mode = SimMode::At;
  Config slow = c;
  slow.collective.analysis_cycles = 16;
  refused(slow, "'collective.analysis_cycles' = 16", "1..15");
  Config instant = c;
  instant.collective.table_cycles = 0;
  refused(instant, "'collective.table_cycles' = 0", "1..15");
  Config big = c;
  big.collective.buffer_flits = 65;
  refused(big, "'collective.buffer_flits' = 65", "17..64");
}
#endif

#ifdef ANGARA_RTL_REDUCER_IN
TEST(CollectiveConfig, TheRtlReducerIsRefusedInLtNamingKeyValueAndRule) {
  Config c = collective({4, 4}, CollectiveOp::Allreduce, SimMode::Lt);
  c.rtl.reducer = BlockImpl::Drive;
  try {
    run_one(c);
    FAIL() << "rtl.reducer = drive should be refused in LT";
  } catch (const IsolatedError& e) {
    EXPECT_EQ(e.type(), "ConfigError");
    const std::string what = e.what();
    EXPECT_NE(what.find("'rtl.reducer' = \"drive\""), std::string::npos) << what;
    EXPECT_NE(what.find("AT only"), std::string::npos) << what;
  }
}
#endif

TEST(CollectiveConfig, BadTreesAndOperationsAreRejectedBeforeSimulation) {
  Config c = collective({4, 4}, CollectiveOp::Broadcast, SimMode::At);
  c.workload.tree = 3;  // only one tree
  try {
    run(c);
    FAIL() << "tree 3 of 1 should be rejected";
  } catch (const IsolatedError& e) {
    EXPECT_EQ(e.type(), "ConfigError");
    EXPECT_NE(std::string(e.what()).find("workload.tree"), std::string::npos) << e.what();
  }
  c.workload.tree = 0;
  c.collective.roots = {{4, 0}};
  try {
    run(c);
    FAIL() << "a root outside the torus should be rejected";
  } catch (const IsolatedError& e) {
    EXPECT_NE(std::string(e.what()).find("collective.roots"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace angara
