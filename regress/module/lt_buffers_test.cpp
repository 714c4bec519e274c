// LT with its buffers modelled (sim.lt_buffers) against AT, in the cases where buffers decide
// the answer: streams of packets (messages of several packets, SpMV's allgather by recursive
// doubling) and uniform traffic at half of AT's saturation; and zero load stays equal to the
// cycle. Each simulation runs in a child; the conservation checker is on in every run.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <iostream>
#include <vector>

#include "platform/experiments/app_experiment.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/node_experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/app_config.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::in_mode;
using test::lt_with_buffers;
using test::run_isolated;

template <typename Run>
std::pair<nlohmann::json, nlohmann::json> both_modes(Config c, Run run) {
  const auto at =
      run_isolated([&] { return nlohmann::json(to_json(run(in_mode(c, SimMode::At)))); });
  const auto lt = run_isolated([&] { return nlohmann::json(to_json(run(lt_with_buffers(c)))); });
  return {at, lt};
}

double error(const nlohmann::json& at, const nlohmann::json& lt) {
  return (lt.get<double>() - at.get<double>()) / at.get<double>();
}

// A 4 KiB message is 16 packets back to back: AT's 64-flit VCs hold the stream back by the
// credit loop of an 80 ns link, and LT without buffers was 39% faster.
TEST(LtBuffers, MessageStreamsMoveAsInAt) {
  Config c;
  c.workload.sizes = {8, 256, 1024, 4096};
  c.workload.messages = 200;
  for (WorkloadKind kind : {WorkloadKind::MsgRate, WorkloadKind::PingPong}) {
    c.workload.kind = kind;
    const auto [at, lt] = both_modes(c, [](const Config& k) { return run_message_benchmark(k); });
    for (std::size_t i = 0; i < c.workload.sizes.size(); ++i) {
      const auto what = fmt::format("{} B", c.workload.sizes[i]);
      if (kind == WorkloadKind::PingPong) {
        EXPECT_EQ(lt["sizes"][i]["half_rtt_ns"], at["sizes"][i]["half_rtt_ns"]) << what;
      } else {
        EXPECT_NEAR(error(at["sizes"][i]["rate_mmsg_s"], lt["sizes"][i]["rate_mmsg_s"]), 0, 0.05)
            << what;
      }
    }
  }
}

TEST(LtBuffers, SpmvAllgatherByRecursiveDoublingTakesAsLongAsInAt) {
  Config c =
      test::app_config({2, 2, 2, 2}, WorkloadKind::Spmv, SoftwareAlgorithm::RecursiveDoubling);
  c.app.rows = 102400;
  const auto [at, lt] = both_modes(c, [](const Config& k) { return run_app_experiment(k); });
  EXPECT_NEAR(error(at["collective_us"], lt["collective_us"]), 0, 0.05);
}

// LT books a packet's path when it is injected, as far ahead as the path takes. A tree's root
// books the broadcasts it turns around down the tree one after another, as its input buffer
// would send them: the subnet's SpMV allgather, whose senders would otherwise put every
// broadcast in every calendar at once, reaches about as far ahead on a run four times as long.
// Measured here: 1441 and 1710 cycles ahead over 91,000 and 357,000; with trains of 16, 16,576
// and 19,068.
TEST(LtBuffers, SubnetAllgatherBooksNoFurtherAheadOnALongerRun) {
  Config c = test::app_config({2, 2, 2, 2}, WorkloadKind::Spmv, SoftwareAlgorithm::Subnet);
  c.collective.trees = 16;
  for (int train : {1, 16}) {
    c.sim.train_packets = train;
    std::array<nlohmann::json, 2> runs;
    for (int longer : {0, 1}) {
      c.app.rows = longer ? 65536 : 16384;
      runs[longer] = run_isolated(
          [&] { return nlohmann::json(to_json(run_app_experiment(lt_with_buffers(c)))); });
    }
    const double ahead = runs[0]["lt_booked_ahead_cycles"].get<double>();
    const double run = runs[0]["sim_cycles"].get<double>();
    SCOPED_TRACE(fmt::format("trains of {}: {} cycles ahead over {}, {} over {}", train, ahead, run,
                             runs[1]["lt_booked_ahead_cycles"].get<double>(),
                             runs[1]["sim_cycles"].get<double>()));
    EXPECT_GT(runs[1]["sim_cycles"].get<double>(), 3 * run);
    EXPECT_GT(ahead, 0);
    EXPECT_LT(runs[1]["lt_booked_ahead_cycles"].get<double>(), 1.5 * ahead);
    std::cout << "trains of " << train << ": booked " << ahead << " and "
              << runs[1]["lt_booked_ahead_cycles"] << " cycles ahead over " << run << " and "
              << runs[1]["sim_cycles"] << '\n';
  }
}

// 4x4x4, uniform: AT accepts 0.546 flits/node/cycle at offered 1.0; half of it here.
TEST(LtBuffers, UniformTrafficAtHalfSaturationHasAtsMeanLatency) {
  Config c;
  c.traffic.rate = 0.27;
  const auto [at, lt] = both_modes(c, [](const Config& k) { return run_experiment(k); });
  EXPECT_EQ(lt["packets_delivered_total"], lt["packets_injected_total"]);
  EXPECT_NEAR(error(at["latency_cycles"]["mean"], lt["latency_cycles"]["mean"]), 0, 0.05);
}

TEST(LtBuffers, CollectivesAtZeroLoadStayEqualToTheCycle) {
  for (CollectiveOp op : {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
    Config c;
    c.workload.kind = WorkloadKind::Collective;
    c.workload.op = op;
    const auto [at, lt] =
        both_modes(c, [](const Config& k) { return run_collective_experiment(k); });
    EXPECT_EQ(lt["per_operation_cycles"], at["per_operation_cycles"]) << static_cast<int>(op);
    EXPECT_EQ(lt["results_digest"], at["results_digest"]) << static_cast<int>(op);
  }
}

}  // namespace
}  // namespace angara
