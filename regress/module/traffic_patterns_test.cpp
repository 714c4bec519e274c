// Every destination pattern, injection process and message length through the whole machine, in
// AT and in LT (with buffers): the offered load is the configured rate (over the nodes that
// send), LT offers the same packets and finds AT's mean latency (to a message's last packet) at
// light load, the hop counts are the pattern's, and nothing is lost. Each simulation runs in a
// child.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "models/core/zero_load.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::in_mode;
using test::lt_with_buffers;
using test::run_isolated;

struct Case {
  std::string name;
  std::function<void(TrafficParams&)> set;
  double senders = 64;  // of the 64 nodes
  double hops = 0;      // mean hops, when the pattern fixes them
};

// In LT with its buffers (LT's default).
nlohmann::json run(Config c, SimMode mode) {
  c = mode == SimMode::Lt ? lt_with_buffers(c) : in_mode(c, mode);
  return run_isolated([&] { return nlohmann::json(to_json(run_experiment(c))); });
}

TEST(TrafficPatterns, OfferTheirRateAndGiveAtsLatencyInLt) {
  const std::vector<Case> cases = {
      {"uniform", [](TrafficParams&) {}},
      {"local, all within 1 hop",
       [](TrafficParams& t) {
         t.pattern = TrafficPattern::Local;
         t.local_rate = 1.0;
       },
       64, 1.0},
      {"local, half within 2 hops",
       [](TrafficParams& t) {
         t.pattern = TrafficPattern::Local;
         t.local_distance = 2;
       }},
      {"hotspot",
       [](TrafficParams& t) {
         t.pattern = TrafficPattern::Hotspot;
         t.hotspot_rate = 0.05;
         t.hotspot_node = {1, 2, 3};
       }},
      // Node ids are x + 4y + 16z: complementing the bits takes every coordinate to 3 - x, one
      // hop away on a ring of 4.
      {"bit_complement", [](TrafficParams& t) { t.pattern = TrafficPattern::BitComplement; }, 64,
       3.0},
      // 8 of the 64 ids are palindromes of 6 bits: those nodes send nothing.
      {"bit_reverse", [](TrafficParams& t) { t.pattern = TrafficPattern::BitReverse; }, 56},
      {"transpose", [](TrafficParams& t) { t.pattern = TrafficPattern::Transpose; }, 56},
      {"shuffle", [](TrafficParams& t) { t.pattern = TrafficPattern::Shuffle; }, 62},
      {"tornado", [](TrafficParams& t) { t.pattern = TrafficPattern::Tornado; }, 64, 3.0},
      {"neighbour", [](TrafficParams& t) { t.pattern = TrafficPattern::Neighbour; }, 64, 3.0},
      {"random_permutation",
       [](TrafficParams& t) { t.pattern = TrafficPattern::RandomPermutation; }},
      {"fft3d phase 2",
       [](TrafficParams& t) {
         t.pattern = TrafficPattern::Fft3d;
         t.fft_rows = 8;
         t.fft_cols = 4;
         t.fft_phase = 2;
       },
       32},
      {"poisson", [](TrafficParams& t) { t.injection = InjectionProcess::Poisson; }},
      {"on_off",
       [](TrafficParams& t) {
         t.injection = InjectionProcess::OnOff;
         t.burst_cycles = 50;
         t.idle_cycles = 50;
       }},
      {"bimodal",
       [](TrafficParams& t) {
         t.bimodal_flits = {2, 16};
         t.bimodal_fraction = 0.5;
       }},
      {"messages of 40 flits (3 packets)", [](TrafficParams& t) { t.message_flits = 40; }},
      {"bimodal messages of 4 and 100 flits",
       [](TrafficParams& t) {
         t.bimodal_flits = {4, 100};
         t.bimodal_fraction = 0.8;
       }},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    Config c;  // 4x4x4
    c.traffic.rate = 0.1;
    c.sim.measure_cycles = 40000;
    k.set(c.traffic);
    const auto at = run(c, SimMode::At);
    const auto lt = run(c, SimMode::Lt);
    for (const auto& r : {at, lt}) {
      EXPECT_EQ(r["packets_delivered_total"], r["packets_injected_total"]);
      EXPECT_FALSE(r["saturated"].get<bool>());
    }
    const double offered = at["offered_flits_per_node_cycle"].get<double>();
    EXPECT_NEAR(offered / (0.1 * k.senders / 64), 1.0, 0.05) << offered;
    EXPECT_EQ(lt["offered_flits_per_node_cycle"], at["offered_flits_per_node_cycle"]);
    const double at_latency = at["latency_cycles"]["mean"].get<double>();
    const double lt_latency = lt["latency_cycles"]["mean"].get<double>();
    EXPECT_NEAR(lt_latency / at_latency, 1.0, 0.05) << "AT " << at_latency << ", LT " << lt_latency;
    if (k.hops > 0) {
      EXPECT_DOUBLE_EQ(at["mean_hops"].get<double>(), k.hops);
    }
  }
}

// A probe pair beside the load: every probe measured, apart from the load (which offers the
// same flits as without them), no faster than an empty network allows, and as in AT in LT.
TEST(TrafficPatterns, ProbePairIsMeasuredApartAndAlikeInBothModes) {
  Config c;  // 4x4x4
  c.traffic.rate = 0.1;
  c.traffic.message_flits = 40;  // three packets: measured to the last
  c.sim.measure_cycles = 20000;
  const auto without = run(c, SimMode::At);
  c.traffic.probes = 100;
  c.traffic.probe_src = {0, 0, 0};
  c.traffic.probe_dst = {2, 2, 2};
  const auto at = run(c, SimMode::At);
  const auto lt = run(c, SimMode::Lt);
  EXPECT_EQ(at["offered_flits_per_node_cycle"], without["offered_flits_per_node_cycle"]);
  EXPECT_EQ(at["packets_delivered"], without["packets_delivered"]);
  // The last of its 3 packets (9 flits) leaves after the first two (17 each).
  const Cycle alone =
      zero_load_latency(c.fabric(), 6, 9) + 2 * ZeroLoad(c.fabric()).local().serialization(17);
  for (const auto& r : {at, lt}) {
    EXPECT_EQ(r["probe_latency_cycles"]["count"], 100);
    EXPECT_GE(r["probe_latency_cycles"]["min"].get<Cycle>(), alone);
  }
  const double at_mean = at["probe_latency_cycles"]["mean"].get<double>();
  const double lt_mean = lt["probe_latency_cycles"]["mean"].get<double>();
  EXPECT_NEAR(lt_mean / at_mean, 1.0, 0.05) << "AT " << at_mean << ", LT " << lt_mean;
}

}  // namespace
}  // namespace angara
