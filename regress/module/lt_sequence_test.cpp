// LT against AT over sequences at zero load: every repetition of an operation run back to back
// (each started when the one before has completed) takes the same cycles in both modes, and a
// ping-pong's half round trip is the same at every size. Each simulation runs in a child.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vector>

#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/node_experiment.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/software_experiment.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/software_config.h"

namespace angara {
namespace {

using test::in_mode;
using test::run_isolated;

nlohmann::json run_collective(const Config& c) {
  return run_isolated([&] { return nlohmann::json(to_json(run_collective_experiment(c))); });
}

nlohmann::json run_bench(const Config& c) {
  return run_isolated([&] { return nlohmann::json(to_json(run_message_benchmark(c))); });
}

// LT once started the second operation at the first's start, before the kernel had reached its
// end: on top of it (4x4x4 broadcast: 391 cycles, the second 481).
TEST(LtVersusAtInSequence, EveryRepetitionOfACollectiveTakesAsLongAsInAt) {
  struct Case {
    std::vector<int> dims;
    std::vector<int> corner;  // broadcast source and reduce destination; {}: the root
    int payload_flits;
  };
  for (const Case& k : std::vector<Case>{{{4, 4, 4}, {}, 16},
                                         {{8, 8, 8}, {}, 16},
                                         {{4, 4, 4, 4}, {}, 16},
                                         {{3, 4, 2, 5}, {2, 3, 1, 4}, 5}}) {
    for (CollectiveOp op :
         {CollectiveOp::Broadcast, CollectiveOp::Reduce, CollectiveOp::Allreduce}) {
      Config c;
      c.topology.dims = k.dims;
      c.workload.kind = WorkloadKind::Collective;
      c.workload.op = op;
      c.workload.source = k.corner;
      c.workload.destination = k.corner;
      c.workload.payload_flits = k.payload_flits;
      c.workload.repetitions = 10;
      const auto at = run_collective(in_mode(c, SimMode::At));
      const auto lt = run_collective(in_mode(c, SimMode::Lt));
      const auto what =
          fmt::format("{} on {}", at["op"].get<std::string>(), fmt::join(k.dims, "x"));
      const auto& cycles = at["per_operation_cycles"];
      ASSERT_EQ(cycles.size(), 10U) << what;
      EXPECT_EQ(cycles, nlohmann::json(10, cycles[0])) << what << ": AT, zero load";
      EXPECT_EQ(lt["per_operation_cycles"], cycles) << what;
      EXPECT_EQ(lt["results_digest"], at["results_digest"]) << what;
      EXPECT_EQ(lt["deliveries_checked"], at["deliveries_checked"]) << what;
    }
  }
}

// 2 KiB and more are streams of packets, which AT's 64-flit VCs hold back (the credit loop of an
// 80 ns link) and LT, without buffers, does not: 128-flit VCs cover it.
// The same operations as CPU programs, with messages along the tree or driving the subnet.
TEST(LtVersusAtInSequence, EveryRepetitionOfASoftwareCollectiveTakesAsLongAsInAt) {
  struct Case {
    CollectiveOp op;
    SoftwareAlgorithm algorithm;
  };
  for (const auto& dims : std::vector<std::vector<int>>{{4, 4, 4}, {3, 4, 2, 2}}) {
    for (const Case& k : std::vector<Case>{{CollectiveOp::Broadcast, SoftwareAlgorithm::Tree},
                                           {CollectiveOp::Broadcast, SoftwareAlgorithm::Binomial},
                                           {CollectiveOp::Reduce, SoftwareAlgorithm::Tree},
                                           {CollectiveOp::Allreduce, SoftwareAlgorithm::Tree},
                                           {CollectiveOp::Broadcast, SoftwareAlgorithm::Subnet},
                                           {CollectiveOp::Reduce, SoftwareAlgorithm::Subnet},
                                           {CollectiveOp::Allreduce, SoftwareAlgorithm::Subnet}}) {
      auto run = [&](SimMode mode) {
        const Config c = test::software_config(dims, mode, k.op, k.algorithm, 5);
        return run_isolated([&] { return nlohmann::json(to_json(run_software_experiment(c))); });
      };
      const auto at = run(SimMode::At);
      const auto lt = run(SimMode::Lt);
      EXPECT_EQ(lt["per_operation_cycles"], at["per_operation_cycles"])
          << at["op"] << " by " << at["algorithm"] << " on "
          << fmt::format("{}", fmt::join(dims, "x"));
      EXPECT_EQ(lt["results_digest"], at["results_digest"]);
    }
  }
}

// 1 KiB and more are streams of packets, which AT's 64-flit VCs hold back (the credit loop of an
// 80 ns link) and LT, without buffers, does not: 128-flit VCs cover it.
void expect_same_per_size(WorkloadKind kind, int messages, const char* figure) {
  for (int buffer_flits : {64, 128}) {
    Config c;
    c.topology.dims = {4, 4, 4};
    c.workload.kind = kind;
    c.workload.messages = messages;
    c.workload.sizes = {8, 16, 64, 200, 256, 512};
    if (buffer_flits == 128) {
      c.workload.sizes.insert(c.workload.sizes.end(), {1024, 2048, 4000, 4096});
    }
    c.router.buffer_flits = buffer_flits;
    const auto at = run_bench(in_mode(c, SimMode::At));
    const auto lt = run_bench(in_mode(c, SimMode::Lt));
    ASSERT_EQ(at["sizes"].size(), c.workload.sizes.size());
    for (std::size_t i = 0; i < c.workload.sizes.size(); ++i) {
      EXPECT_EQ(lt["sizes"][i][figure], at["sizes"][i][figure])
          << at["workload"] << ", " << c.workload.sizes[i] << " B, " << buffer_flits << "-flit VCs";
    }
  }
}

TEST(LtVersusAtInSequence, PingPongHalfRoundTripIsTheSameAtEverySize) {
  expect_same_per_size(WorkloadKind::PingPong, 5, "half_rtt_ns");
}

// The receiver polls as fast as messages come: LT's, ahead of the kernel, once found nothing
// where AT found a message (8 B, 10 messages: 1848 ns, LT 2148), and once woke early for a
// message it had already taken (256 B: 2266 ns, LT 2250).
TEST(LtVersusAtInSequence, MsgRateTimeIsTheSameAtEverySize) {
  expect_same_per_size(WorkloadKind::MsgRate, 10, "time_ns");
  expect_same_per_size(WorkloadKind::MsgRate, 200, "time_ns");
}

}  // namespace
}  // namespace angara
