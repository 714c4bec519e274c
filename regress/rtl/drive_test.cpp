// An RTL block drives the model: the Reducer the PEGroup (rtl.reducer = "drive"), or with
// ANGARA_DRIVE_VCUP VCUp the routers (rtl.vcup = "drive"). Built once per variant
// (regress/rtl/CMakeLists.txt):
// - a Reducer whose timing differs from the model's on purpose (ANGARA_RTL_TIMING): allreduces
//   with it must take exactly the time the model gives with the cycle counts that describe that
//   timing (ANGARA_MODEL_HEAD, ANGARA_MODEL_RESULT), with the same deliveries and result digests,
//   and a different time from the model's at the RTL's own settings;
// - a VCUp whose head analysis takes ANGARA_VCUP_EXTRA cycles more: every back-to-back allreduce
//   on one tree takes that many cycles more for each VCUp on its way up (the tree's depth: the
//   results come down through VCDown), with the model's deliveries and digests;
// - a wrong block (ANGARA_RTL_WRONG_SIGNAL): the run stops, naming the signal.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <vector>

#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

#ifndef ANGARA_RTL_HEAD
#define ANGARA_RTL_HEAD 2
#endif

Config allreduces(const std::vector<int>& dims, int flits, bool overlap) {
  Config c;
  c.topology.dims = dims;
  c.collective.trees = 4;
  c.collective.reducer_cycles = ANGARA_RTL_HEAD;
  c.workload.kind = WorkloadKind::Collective;
  c.workload.op = CollectiveOp::Allreduce;
  c.workload.reduction = Reduction::Max;
  c.workload.payload_flits = flits;
  c.workload.repetitions = 12;
  c.workload.overlap = overlap;
  c.workload.all_trees = overlap;
  c.sim.progress = false;
  return c;
}

#ifdef ANGARA_DRIVE_VCUP
constexpr const char* kBlock = "VCUp";
void drive(Config& c) {
  c.rtl.vcup = BlockImpl::Drive;
}
#else
constexpr const char* kBlock = "Reducer";
void drive(Config& c) {
  c.rtl.reducer = BlockImpl::Drive;
}
#endif

nlohmann::json run(const Config& c) {
  return test::run_isolated([&] {
    auto j = to_json(run_collective_experiment(c));
    for (const char* volatile_key : {"wall_seconds", "config"}) j.erase(volatile_key);
    return nlohmann::json(j);
  });
}

#ifdef ANGARA_RTL_WRONG_SIGNAL
TEST(RtlDriving, AWrongRtlStopsTheRunNamingTheSignalTheCycleAndBothValues) {
  Config c = allreduces({4, 4}, 16, false);
  drive(c);
  try {
    run(c);
    FAIL() << "the wrong RTL passed";
  } catch (const test::IsolatedError& e) {
    const std::string what = e.what();
    std::cout << "wrong RTL driving (" << ANGARA_RTL_WRONG << "): " << what << '\n';
    EXPECT_NE(what.find(kBlock), std::string::npos) << what;
    EXPECT_NE(what.find(" RTL: " ANGARA_RTL_WRONG_SIGNAL " at cycle "), std::string::npos) << what;
    EXPECT_NE(what.find(": model "), std::string::npos) << what;
    EXPECT_NE(what.find(", RTL "), std::string::npos) << what;
  }
}
#elif defined(ANGARA_VCUP_EXTRA)
TEST(RtlVcUpDriving, AllreducesTakeLongerByWhatItsTimingImpliesWithTheModelsResults) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 4}, std::vector<int>{3, 3, 3}}) {
    int depth = 0;  // of a dimension-order tree: half of every ring
    for (int d : dims) depth += d / 2;
    for (int flits : {1, 16}) {
      Config nominal = allreduces(dims, flits, false);
      nominal.collective.trees = 1;
      Config driven = nominal;
      drive(driven);
      const std::string what =
          fmt::format("back-to-back allreduces of {} flits on {}", flits, fmt::join(dims, "x"));
      const nlohmann::json model = run(nominal);
      const nlohmann::json rtl = run(driven);
      EXPECT_EQ(rtl["results_digest"], model["results_digest"]) << what;
      EXPECT_EQ(rtl["deliveries_checked"], model["deliveries_checked"]) << what;
      EXPECT_EQ(rtl["rtl_vcup_checked"]["packets"], rtl["rtl_vcup_checked"]["frees"]) << what;
      const auto& done = rtl["per_operation_cycles"];
      const auto& model_done = model["per_operation_cycles"];
      ASSERT_EQ(done.size(), model_done.size()) << what;
      std::vector<long> longer;
      for (std::size_t i = 0; i < done.size(); ++i) {
        longer.push_back(done[i].get<long>() - model_done[i].get<long>());
        EXPECT_EQ(longer.back(), ANGARA_VCUP_EXTRA * depth) << what << ", operation " << i;
      }
      std::cout << what << ", VCUp " << ANGARA_RTL_TIMING << ": each allreduce longer by "
                << fmt::format("{}", fmt::join(longer, " ")) << " cycles (tree depth " << depth
                << ")\n";
    }
  }
}
#else
TEST(RtlReducerDriving, AllreducesTakeTheTimeItsTimingImpliesWithTheModelsResults) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 4}, std::vector<int>{3, 3, 3}}) {
    for (int flits : {1, 16}) {
      for (bool overlap : {false, true}) {
        const Config nominal = allreduces(dims, flits, overlap);
        Config driven = nominal;
        drive(driven);
        Config implied = nominal;
        implied.collective.reducer_cycles = ANGARA_MODEL_HEAD;
        implied.collective.reducer_result_cycles = ANGARA_MODEL_RESULT;
        const std::string what =
            fmt::format("{} allreduces of {} flits on {}", overlap ? "overlapping" : "back-to-back",
                        flits, fmt::join(dims, "x"));
        const nlohmann::json model = run(nominal);
        nlohmann::json rtl = run(driven);
        const nlohmann::json expected = run(implied);
        std::cout << what << ", Reducer " << ANGARA_RTL_TIMING << ": mean completion "
                  << rtl["completion_cycles"]["mean"] << " cycles, the model's "
                  << model["completion_cycles"]["mean"] << '\n';
        EXPECT_EQ(rtl["rtl_reducer_checked"]["results"].get<int>(),
                  rtl["operations"].get<int>() * (overlap ? 4 : 1) * nominal.topology.node_count())
            << what << ": every node's Reducer hands off every result";
        rtl.erase("rtl_reducer_checked");
        EXPECT_EQ(rtl, expected) << what;
        if (!overlap) {  // one at a time, every Reducer on the way is on the critical path
          EXPECT_NE(rtl["per_operation_cycles"], model["per_operation_cycles"]) << what;
        }
        EXPECT_EQ(rtl["results_digest"], model["results_digest"]) << what;
      }
    }
  }
}
#endif

}  // namespace
}  // namespace angara
