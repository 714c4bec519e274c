// RTL benchmark: what the RTL blocks cost in AT. Back-to-back and overlapping allreduces on 4x4x4
// and 8x8x8 with the C++ model alone, with the verilated Reducer checked every cycle against the
// model and driving its timing, and with the verilated VCUp beside every router (checked);
// prints the wall times and their ratios, and fails if the results differ.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <vector>

#include "platform/experiments/collective_experiment.h"
#include "regress/support/bench_args.h"
#include "regress/support/bench_clock.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::run_isolated;
using test::seconds_since;
using test::WallClock;

struct Run {
  double wall_s = 0;
  nlohmann::json completion;
  std::uint64_t digest = 0, rtl_cycles = 0;
};

Run allreduces(const std::vector<int>& dims, int operations, bool overlap, const RtlParams& rtl) {
  const auto r = run_isolated([&] {
    Config c;
    c.topology.dims = dims;
    c.sim.progress = false;
    c.workload.kind = WorkloadKind::Collective;
    c.workload.op = CollectiveOp::Allreduce;
    c.workload.repetitions = operations;
    c.workload.overlap = overlap;
    c.rtl = rtl;
    const auto start = WallClock::now();
    const CollectiveResult result = run_collective_experiment(c);
    return nlohmann::json{{"wall_s", seconds_since(start)},
                          {"completion", result.completion},
                          {"digest", result.results_digest},
                          {"rtl_cycles", result.rtl.cycles + result.rtl_vcup.cycles}};
  });
  return {r["wall_s"].get<double>(), r["completion"], r["digest"].get<std::uint64_t>(),
          r["rtl_cycles"].get<std::uint64_t>()};
}

void compare(const std::vector<int>& dims, int operations, bool overlap) {
  RtlParams reducer, driving, vcup;
  reducer.reducer = BlockImpl::Check;
  driving.reducer = BlockImpl::Drive;
  vcup.vcup = BlockImpl::Check;
  const Run model = allreduces(dims, operations, overlap, {});
  const std::string what =
      fmt::format("{} {} allreduces on {}", operations, overlap ? "overlapping" : "back-to-back",
                  fmt::join(dims, "x"));
  for (const auto& [block, rtl] :
       {std::pair{"Reducer", reducer}, std::pair{"Reducer driving", driving},
        std::pair{"VCUp", vcup}}) {
    const Run r = allreduces(dims, operations, overlap, rtl);
    if (model.completion != r.completion || model.digest != r.digest) {
      throw std::runtime_error(
          fmt::format("{}: with the RTL {} the results differ from the "
                      "model's",
                      what, block));
    }
    fmt::print("{}: model {:.2f} s, RTL {} {:.2f} s ({} RTL cycles checked): RTL/model {:.1f}x\n",
               what, model.wall_s, block, r.wall_s, r.rtl_cycles, r.wall_s / model.wall_s);
  }
}

}  // namespace
}  // namespace angara

// A failing bench throws through main and aborts with the error, as it should.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  if (const auto code = angara::test::no_options(
          argc, argv, "rtl_bench",
          "back-to-back and overlapping allreduces on 4x4x4 and 8x8x8 in AT: the C++ model\n"
          "  alone, with the verilated Reducer checked and driving, with the verilated VCUp "
          "beside\n"
          "  every router;\n"
          "  wall times, their ratios, and a failure if the results differ. No options.")) {
    return *code;
  }
  for (const std::vector<int>& dims : {std::vector<int>{4, 4, 4}, std::vector<int>{8, 8, 8}}) {
    angara::compare(dims, 100, false);
    angara::compare(dims, 200, true);
  }
  return 0;
}
