// Node benchmark: 32768 CPUs (16x16x16x8 torus, LT) through one software allreduce of 16 flits
// along the hardware's tree, every hop a message through PCIe; prints the wall time to build and
// run it, peak memory and the simulated completion time. Also a 512-node msgrate in AT, LT and LT
// with buffers for the cost of a message, and SpMV's allgather by recursive doubling (4 KB
// messages, LT) at 256 and 1024 nodes: wall time per message and how it grows with the machine.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "platform/experiments/app_experiment.h"
#include "platform/experiments/node_experiment.h"
#include "platform/experiments/software_experiment.h"
#include "regress/support/bench_args.h"
#include "regress/support/bench_clock.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::peak_rss_mb;
using test::run_isolated;
using test::seconds_since;
using test::WallClock;

// An LT machine of `dims`, without progress lines.
Config lt_machine(std::vector<int> dims) {
  Config c;
  c.topology.dims = std::move(dims);
  c.sim.mode = SimMode::Lt;
  c.sim.progress = false;
  return c;
}

void software_allreduce_32768() {
  const auto r = run_isolated([] {
    Config c = lt_machine({16, 16, 16, 8});
    c.workload.kind = WorkloadKind::Software;
    c.workload.op = CollectiveOp::Allreduce;
    c.workload.repetitions = 1;
    const auto start = WallClock::now();
    const SoftwareResult result = run_software_experiment(c);
    return nlohmann::json{{"total_s", seconds_since(start)},
                          {"completion_cycles", result.completion.at(0)},
                          {"messages", result.messages},
                          {"rss_mb", peak_rss_mb()}};
  });
  fmt::print(
      "software allreduce, 32768 CPUs (16x16x16x8, LT): {:.2f} s to build, run and check, {} "
      "messages, peak RSS {:.0f} MB; completion {} cycles ({:.1f} us)\n",
      r["total_s"].get<double>(), r["messages"].get<std::uint64_t>(), r["rss_mb"].get<double>(),
      r["completion_cycles"].get<Cycle>(), r["completion_cycles"].get<double>() * 2.0 / 1000.0);
}

// msgrate on 8x8x8, 40000 messages of 8 B and 4 KiB: wall seconds.
double msgrate(SimMode mode, bool lt_buffers) {
  const auto r = run_isolated([&] {
    Config c;
    c.topology.dims = {8, 8, 8};
    c.sim.mode = mode;
    c.sim.lt_buffers = lt_buffers;
    c.sim.progress = false;
    c.workload.kind = WorkloadKind::MsgRate;
    c.workload.sizes = {8, 4096};
    c.workload.messages = 20000;
    const auto start = WallClock::now();
    const auto result = run_message_benchmark(c);
    return nlohmann::json{{"wall_s", seconds_since(start)}};
  });
  return r["wall_s"].get<double>();
}

void msgrate_modes() {
  const double at = msgrate(SimMode::At, false);
  const double lt = msgrate(SimMode::Lt, false);
  const double buffers = msgrate(SimMode::Lt, true);
  fmt::print(
      "msgrate, 8x8x8, 40000 messages (8 B and 4 KiB): AT {:.2f} s ({:.0f} messages/s), LT "
      "{:.2f} s, LT with buffers {:.2f} s; AT/LT {:.1f}x, AT/LT with buffers {:.1f}x (target "
      "3x)\n",
      at, 40000 / at, lt, buffers, at / lt, at / buffers);
}

// One SpMV iteration by recursive doubling (regress/paper/spmv.toml's settings); returns the wall
// time per message delivered, in microseconds.
double spmv_recursive_doubling(std::vector<int> dims) {
  const auto r = run_isolated([dims] {
    Config c = lt_machine(dims);
    c.sim.train_packets = 16;
    c.collective.trees = 16;
    c.workload.kind = WorkloadKind::Spmv;
    c.workload.algorithm = SoftwareAlgorithm::RecursiveDoubling;
    c.workload.repetitions = 1;
    const auto start = WallClock::now();
    const AppResult result = run_app_experiment(c);
    return nlohmann::json{
        {"wall_s", seconds_since(start)}, {"messages", result.messages}, {"rss_mb", peak_rss_mb()}};
  });
  const double per_message_us =
      r["wall_s"].get<double>() * 1e6 / static_cast<double>(r["messages"].get<std::uint64_t>());
  fmt::print(
      "SpMV recursive doubling, {} nodes (LT, one iteration): {:.1f} s, {} messages, "
      "{:.2f} us per message, peak RSS {:.0f} MB\n",
      fmt::join(dims, "x"), r["wall_s"].get<double>(), r["messages"].get<std::uint64_t>(),
      per_message_us, r["rss_mb"].get<double>());
  return per_message_us;
}

}  // namespace
}  // namespace angara

// A failing bench throws through main and aborts with the error, as it should.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  if (const auto code = angara::test::no_options(
          argc, argv, "node_bench",
          "32768 CPUs through one software allreduce (LT); msgrate on 8x8x8 in AT, LT and LT\n"
          "  with buffers; SpMV's recursive doubling at 256 and 1024 nodes (LT), wall time per\n"
          "  message. About 10 minutes. No options.")) {
    return *code;
  }
  angara::software_allreduce_32768();
  angara::msgrate_modes();
  const double small = angara::spmv_recursive_doubling({4, 4, 4, 4});
  const double large = angara::spmv_recursive_doubling({8, 8, 4, 4});
  fmt::print(
      "SpMV recursive doubling: a message costs {:.2f}x as much wall time at 1024 nodes as "
      "at 256\n",
      large / small);
  return 0;
}
