// CPU benchmark: coroutine programs resumed by one SC_METHOD per CpuModule. Every program does
// `steps` wait_until(now + 10), each a real suspension, so the kernel resumes every CPU at every
// tenth cycle. Prints resumes per second, elaboration time and peak RSS against the rates the
// model was designed for; each measurement runs in its own child process.
//
//   cpu_bench            32768 and 1024 CPUs, 200 steps
//   options: --cpus N --steps S

#include <fmt/format.h>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "models/cpu/cpu_at.h"
#include "regress/support/bench_clock.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::peak_rss_mb;
using test::seconds_since;
using test::WallClock;

Task stepper(CpuCore& cpu, int steps) {
  for (int i = 0; i < steps; ++i) co_await cpu.wait_until(cpu.now() + 10);
}

nlohmann::json measure(int cpus, int steps) {
  const auto start = WallClock::now();
  const FabricClock clock(500.0);
  std::vector<std::unique_ptr<CpuModule>> modules;
  modules.reserve(cpus);
  for (int i = 0; i < cpus; ++i) {
    modules.push_back(
        std::make_unique<CpuModule>(("cpu_" + std::to_string(i)).c_str(), 100, 1.0, clock));
    modules.back()->load(stepper(modules.back()->core(), steps));
  }
  const double elaborate = seconds_since(start);
  const auto run_start = WallClock::now();
  sc_core::sc_start();
  const double run = seconds_since(run_start);
  std::uint64_t resumes = 0;
  int finished = 0;
  for (const auto& m : modules) {
    resumes += m->core().resumes();
    finished += m->core().finished() ? 1 : 0;
  }
  return {{"elaborate_s", elaborate}, {"run_s", run},       {"resumes", resumes},
          {"finished", finished},     {"end", clock.now()}, {"peak_rss_mb", peak_rss_mb()}};
}

void print(int cpus, int steps, double design_mps) {
  const auto r = test::run_isolated([&] { return measure(cpus, steps); });
  const double mps = r["resumes"].get<double>() / r["run_s"].get<double>() / 1e6;
  fmt::print("{} CPUs x {} wait_until steps: {} resumes in {:.3f} s = {:.1f} M resumes/s", cpus,
             steps, r["resumes"].get<std::uint64_t>(), r["run_s"].get<double>(), mps);
  if (design_mps > 0)
    fmt::print(" (designed for {:.0f} M/s: {:.2f}x)", design_mps, mps / design_mps);
  fmt::print("; elaborate {:.3f} s, peak RSS {:.0f} MB; {} finished at cycle {}\n",
             r["elaborate_s"].get<double>(), r["peak_rss_mb"].get<double>(),
             r["finished"].get<int>(), r["end"].get<Cycle>());
}

}  // namespace
}  // namespace angara

// A failing bench throws through main and aborts with the error, as it should.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  using namespace angara;
  int cpus = 0;
  int steps = 200;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--help" || key == "-h") {
      fmt::print(
          "cpu_bench: coroutine CPUs resumed every tenth cycle; resumes per second, elaboration\n"
          "  and peak RSS (default: 32768 and 1024 CPUs, 200 steps).\n"
          "  --cpus N    one run of N CPUs\n"
          "  --steps S   waits per program (default 200)\n");
      return 0;
    }
    if (key != "--cpus" && key != "--steps") {
      fmt::print(stderr, "cpu_bench: unknown option {} (see --help)\n", key);
      return 1;
    }
    if (i + 1 == argc) {
      fmt::print(stderr, "cpu_bench: {} needs a value\n", key);
      return 1;
    }
    if (key == "--cpus") {
      cpus = std::atoi(argv[i + 1]);
    } else {
      steps = std::atoi(argv[i + 1]);
    }
  }
  if (cpus > 0) {
    print(cpus, steps, 0);
    return 0;
  }
  print(32768, steps, 12);  // designed for: 32768 coroutine programs resume at about 12 M/s
  print(1024, steps, 35);   // and 1024 of them at about 35 M/s
  return 0;
}
