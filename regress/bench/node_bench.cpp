// Node benchmark: 32768 CPUs (16x16x16x8 torus, LT) through one software allreduce of 16 flits
// along the hardware's tree, every hop a message through PCIe; prints the wall time to build and
// run it, peak memory and the simulated completion time. Also a 512-node ping-pong and msgrate
// pair for the cost of a message in AT.

#include <fmt/format.h>

#include "platform/node_experiment.h"
#include "platform/software_experiment.h"
#include "regress/support/bench_clock.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::peak_rss_mb;
using test::run_isolated;
using test::seconds_since;
using test::WallClock;

void software_allreduce_32768() {
  const auto r = run_isolated([] {
    Config c;
    c.topology.dims = {16, 16, 16, 8};
    c.sim.mode = SimMode::Lt;
    c.sim.progress = false;
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
      r["total_s"].get<double>(), r["messages"].get<std::uint64_t>(),
      r["rss_mb"].get<double>(), r["completion_cycles"].get<Cycle>(),
      r["completion_cycles"].get<double>() * 2.0 / 1000.0);
}

void msgrate_at() {
  const auto r = run_isolated([] {
    Config c;
    c.topology.dims = {8, 8, 8};
    c.sim.progress = false;
    c.workload.kind = WorkloadKind::MsgRate;
    c.workload.sizes = {8, 4096};
    c.workload.messages = 20000;
    const auto start = WallClock::now();
    const auto result = run_message_benchmark(c);
    return nlohmann::json{{"wall_s", seconds_since(start)}, {"messages", 2 * 20000}};
  });
  fmt::print("msgrate, 8x8x8 AT, 40000 messages (8 B and 4 KiB): {:.2f} s, {:.0f} messages/s\n",
             r["wall_s"].get<double>(), 40000 / r["wall_s"].get<double>());
}

}  // namespace
}  // namespace angara

int main() {
  angara::software_allreduce_32768();
  angara::msgrate_at();
  return 0;
}
