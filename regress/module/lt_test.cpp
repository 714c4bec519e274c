// LT against AT: the same functional results, the same zero-load latency to the cycle, and mean
// latency within 10% under load up to half of saturation. Each simulation runs in a child.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <vector>

#include "models/core/zero_load.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/probe_run.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/system.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {
namespace {

using test::in_mode;
using test::run_isolated;

// Records every delivery: which packet, where it arrived, what it carried, how it went.
class DeliveryLog : public TrafficObserver {
 public:
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& p, NodeId /*at*/) override {
    std::uint64_t checksum = 0;
    for (int i = 0; i < p.header.data_flits; ++i)
      checksum = checksum * 31 + p.data[i].lo + p.data[i].hi;
    log.push_back(
        {p.header.sequence(), p.header.src, p.header.dst, p.header.data_flits, checksum, p.hops});
  }
  nlohmann::json log = nlohmann::json::array();
};

// Uniform traffic for `cycles`, then creation stops and the network drains.
nlohmann::json deliveries(const Config& config, Cycle cycles) {
  return run_isolated([&] {
    const int nodes = config.topology.node_count();
    const Topology topology(config.topology);
    const Destinations destinations(topology, config.traffic, config.sim.seed);
    std::vector<std::unique_ptr<TrafficSource>> sources;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      sources.push_back(
          std::make_unique<SyntheticTraffic>(n, destinations, config.traffic, config.sim.seed));
    }
    DeliveryLog log;
    System system(config, std::move(sources), log);
    sc_core::sc_start(system.clock().period() * static_cast<double>(cycles));
    system.stop_creating();
    sc_core::sc_start();
    auto sorted = log.log;
    std::sort(sorted.begin(), sorted.end());
    return nlohmann::json{{"in_flight", system.ledger().in_flight()}, {"log", sorted}};
  });
}

TEST(LtVersusAt, SamePacketsReachTheSameNodesWithTheSamePayloads) {
  for (const auto& dims : std::vector<std::vector<int>>{{4, 4, 4}, {3, 4, 2, 2}}) {
    Config c;
    c.topology.dims = dims;
    c.traffic.rate = 0.3;
    c.traffic.packet_flits = 7;
    const auto at = deliveries(in_mode(c, SimMode::At), 3000);
    const auto lt = deliveries(in_mode(c, SimMode::Lt), 3000);
    EXPECT_EQ(at["in_flight"], 0);
    EXPECT_EQ(lt["in_flight"], 0);
    EXPECT_GT(at["log"].size(), 500u);
    EXPECT_EQ(at["log"], lt["log"]);
  }
}

nlohmann::json probe_latencies(const Config& config, const std::vector<Probe>& probes) {
  return run_isolated([&] {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : run_probes(config, probes)) out.push_back(d.latency);
    return out;
  });
}

TEST(LtVersusAt, ZeroLoadLatencyIsIdenticalToTheCycle) {
  Config three_d;
  three_d.topology.dims = {4, 4, 4};
  Config four_d;
  four_d.topology.dims = {3, 4, 2, 5};
  four_d.router.pipeline_cycles = 4;
  four_d.link.latency_ns = 60;
  for (const Config& c : {three_d, four_d}) {
    const Torus torus(c.topology.dims);
    const auto last = static_cast<NodeId>(torus.node_count() - 1);
    std::vector<Probe> probes;
    Cycle t = 0;
    for (auto [src, dst] : std::vector<std::pair<NodeId, NodeId>>{{0, last}, {last, 1}, {5, 17}}) {
      for (int flits : {1, 5, 16}) {
        probes.push_back({src, {dst, flits, t}});
        t += 3000;
      }
    }
    const auto at = probe_latencies(in_mode(c, SimMode::At), probes);
    const auto lt = probe_latencies(in_mode(c, SimMode::Lt), probes);
    EXPECT_EQ(at, lt);
    for (std::size_t i = 0; i < probes.size(); ++i) {
      EXPECT_EQ(lt[i].get<Cycle>(),
                zero_load_latency(c.fabric(), torus.min_hops(probes[i].src, probes[i].packet.dst),
                                  1 + probes[i].packet.data_flits));
    }
  }
}

double mean_latency(const Config& config) {
  return run_isolated([&] {
           return nlohmann::json(to_json(run_experiment(config))["latency_cycles"]["mean"]);
         })
      .get<double>();
}

// Saturation (accepted load at offered 1.0, AT, bubble, defaults): 8x8 0.39, 4x4x4 0.55.
TEST(LtVersusAt, MeanLatencyWithinTenPercentUpToHalfSaturation) {
  struct Case {
    std::vector<int> dims;
    double rate;
  };
  for (const Case& k :
       std::vector<Case>{{{8, 8}, 0.1}, {{8, 8}, 0.19}, {{4, 4, 4}, 0.1}, {{4, 4, 4}, 0.27}}) {
    Config c;
    c.topology.dims = k.dims;
    c.traffic.rate = k.rate;
    const double at = mean_latency(in_mode(c, SimMode::At));
    const double lt = mean_latency(in_mode(c, SimMode::Lt));
    const double error = (lt - at) / at;
    fmt::print(
        "{} torus at {:.2f} flits/node/cycle: mean latency AT {:.1f}, LT {:.1f} cycles, LT "
        "error {:+.1f}%\n",
        fmt::join(k.dims, "x"), k.rate, at, lt, 100 * error);
    EXPECT_LT(std::abs(error), 0.10);
  }
}

}  // namespace
}  // namespace angara
