// A Reducer drives the PEGroup (rtl.reducer = "drive"). One whose timing differs from the model's
// on purpose (ANGARA_RTL_TIMING): allreduces with it must take exactly the time the model gives
// with the cycle counts that describe that timing (ANGARA_MODEL_HEAD, ANGARA_MODEL_RESULT), with
// the same deliveries and result digests, and a different time from the model's at the RTL's own
// settings. A wrong one (ANGARA_RTL_WRONG_SIGNAL): the run stops, naming the signal. Built once
// per variant (regress/rtl/CMakeLists.txt).

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

nlohmann::json run(const Config& c) {
  return test::run_isolated([&] {
    auto j = to_json(run_collective_experiment(c));
    for (const char* volatile_key : {"wall_seconds", "config"}) j.erase(volatile_key);
    return nlohmann::json(j);
  });
}

#ifdef ANGARA_RTL_WRONG_SIGNAL
TEST(RtlReducerDriving, AWrongRtlStopsTheRunNamingTheSignalTheCycleAndBothValues) {
  Config c = allreduces({4, 4}, 16, false);
  c.rtl.reducer = BlockImpl::Drive;
  try {
    run(c);
    FAIL() << "the wrong RTL passed";
  } catch (const test::IsolatedError& e) {
    const std::string what = e.what();
    std::cout << "wrong RTL driving (" << ANGARA_RTL_WRONG << "): " << what << '\n';
    EXPECT_NE(what.find("Reducer RTL: " ANGARA_RTL_WRONG_SIGNAL " at cycle "), std::string::npos)
        << what;
    EXPECT_NE(what.find(": model "), std::string::npos) << what;
    EXPECT_NE(what.find(", RTL "), std::string::npos) << what;
  }
}
#else
TEST(RtlReducerDriving, AllreducesTakeTheTimeItsTimingImpliesWithTheModelsResults) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 4}, std::vector<int>{3, 3, 3}}) {
    for (int flits : {1, 16}) {
      for (bool overlap : {false, true}) {
        const Config nominal = allreduces(dims, flits, overlap);
        Config driven = nominal;
        driven.rtl.reducer = BlockImpl::Drive;
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
