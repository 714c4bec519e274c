// Fabric benchmark: simulation speed of the AT model under uniform traffic, and elaboration cost
// of a large torus. Prints its figures against the targets of docs/PERFORMANCE.md; each
// measurement runs in its own child process so the peak RSS is that measurement's alone.
//
//   fabric_bench [--cycles N] [--rate R] [--dims 8x8x8] [--elaborate 16x16x32]

#include <sys/resource.h>

#include <fmt/format.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "platform/experiment.h"
#include "platform/system.h"
#include "regress/support/isolated.h"
#include "workloads/synthetic/traffic_measurement.h"
#include "workloads/synthetic/uniform_traffic.h"

namespace angara {
namespace {

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

std::vector<int> parse_dims(const std::string& text) {
  std::vector<int> dims;
  for (const char* p = text.c_str(); *p;) {
    char* end = nullptr;
    dims.push_back(static_cast<int>(std::strtol(p, &end, 10)));
    p = *end == 'x' ? end + 1 : end;
    if (end == p && *p) break;
  }
  return dims;
}

nlohmann::json simulate(const std::vector<int>& dims, double rate, Cycle cycles) {
  Config c;
  c.topology.dims = dims;
  c.traffic.rate = rate;
  c.sim.warmup_cycles = cycles / 10;
  c.sim.measure_cycles = cycles - cycles / 10;
  c.sim.progress = false;
  const auto r = run_experiment(c);
  return {{"nodes", r.nodes},
          {"sim_cycles", r.sim_cycles},
          {"wall_seconds", r.wall_seconds},
          {"flit_hops", r.flit_hops},
          {"accepted", r.accepted_flits_per_node_cycle},
          {"latency_mean", r.latency.mean()},
          {"peak_rss_mb", peak_rss_mb()}};
}

nlohmann::json elaborate(const std::vector<int>& dims) {
  const auto start = std::chrono::steady_clock::now();
  Config c;
  c.topology.dims = dims;
  c.traffic.rate = 0.0;
  const int nodes = c.topology.node_count();
  TrafficMeasurement measurement(0, 1);
  std::vector<std::unique_ptr<TrafficSource>> sources;
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    sources.push_back(std::make_unique<UniformTraffic>(n, nodes, c.traffic, 1));
  }
  System system(c, std::move(sources), measurement);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes elaboration: binding checks, callbacks
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {{"nodes", nodes}, {"seconds", seconds}, {"peak_rss_mb", peak_rss_mb()}};
}

}  // namespace
}  // namespace angara

int main(int argc, char** argv) {
  using namespace angara;
  std::string dims = "8x8x8", big = "16x16x32";
  double rate = 0.17;  // half of the 8x8x8 bubble saturation, 0.34 flits/node/cycle
  Cycle cycles = 20000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--cycles")
      cycles = std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "--rate")
      rate = std::atof(value.c_str());
    else if (key == "--dims")
      dims = value;
    else if (key == "--elaborate")
      big = value;
    else {
      fmt::print(stderr, "fabric_bench: unknown option {}\n", key);
      return 1;
    }
  }
  const auto sim = test::run_isolated([&] { return simulate(parse_dims(dims), rate, cycles); });
  const double wall = sim["wall_seconds"];
  const double router_cycles = sim["nodes"].get<double>() * sim["sim_cycles"].get<double>();
  const double flit_hops_per_s = sim["flit_hops"].get<double>() / wall;
  fmt::print("simulate {} torus, uniform {:.3f} flits/node/cycle, {} cycles: {:.2f} s wall\n", dims,
             rate, sim["sim_cycles"].get<Cycle>(), wall);
  fmt::print("  router-cycles per second  {:.3g}\n", router_cycles / wall);
  fmt::print("  flit-hops per second      {:.3g}  (target 5e6: {:.1f}x)\n", flit_hops_per_s,
             flit_hops_per_s / 5e6);
  fmt::print("  peak RSS                  {:.0f} MB\n", sim["peak_rss_mb"].get<double>());

  const auto elab = test::run_isolated([&] { return elaborate(parse_dims(big)); });
  const double seconds = elab["seconds"], rss = elab["peak_rss_mb"];
  fmt::print(
      "elaborate {} torus ({} nodes): {:.2f} s (target 2 s: {:.2f}x), peak RSS {:.0f} MB "
      "(target 1024 MB: {:.2f}x)\n",
      big, elab["nodes"].get<int>(), seconds, seconds / 2.0, rss, rss / 1024.0);
  return 0;
}
