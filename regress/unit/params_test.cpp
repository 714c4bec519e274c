// Unit tests of the machine parameters: Table 1 defaults, channel timing in whole cycles and the
// configuration checks (each names the offending key).

#include "platform/config/config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "models/core/config_error.h"
#include "models/core/packet.h"

namespace angara {
namespace {

// Passes if `check` throws a ConfigError naming `key` (in key() and in the message).
testing::AssertionResult throws_config_error(const std::function<void()>& check,
                                             const std::string& key) {
  try {
    check();
  } catch (const ConfigError& e) {
    if (e.key() != key) {
      return testing::AssertionFailure()
             << "ConfigError for key '" << e.key() << "', expected '" << key << "': " << e.what();
    }
    if (std::string(e.what()).find(key) == std::string::npos) {
      return testing::AssertionFailure() << "message does not name the key: " << e.what();
    }
    return testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return testing::AssertionFailure() << "did not throw (expected a ConfigError for " << key << ")";
}

TEST(ChannelTiming, Table1LinkIsFortyCyclesAndAFlitPerCycleOrLess) {
  const ChannelTiming t(ChannelParams{75.0, 80.0}, 500.0);
  EXPECT_EQ(t.latency, 40u);  // 80 ns at 2 ns per cycle, exactly: must not round up to 41
  EXPECT_NEAR(t.cycles_per_flit, 128.0 * 0.5 / 75.0, 1e-12);
  EXPECT_EQ(t.serialization(1), 1u);    // 0.853 cycles
  EXPECT_EQ(t.serialization(2), 2u);    // 1.707
  EXPECT_EQ(t.serialization(3), 3u);    // 2.56
  EXPECT_EQ(t.serialization(16), 14u);  // 13.65
  EXPECT_EQ(t.serialization(17), 15u);  // 17 * 128 * 0.5 / 75 = 14.507
}

TEST(ChannelTiming, LatencyRoundsUpToWholeCycles) {
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 81.0}, 500.0).latency, 41u);  // 40.5 cycles
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 80.1}, 500.0).latency, 41u);
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 2.2}, 500.0).latency, 2u);
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 0.0}, 500.0).latency, 0u);
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 0.3}, 1000.0).latency, 1u);
  EXPECT_EQ(ChannelTiming(ChannelParams{75.0, 80.0}, 1000.0).latency, 80u);
}

TEST(ChannelTiming, ExactSerializationIsNotRoundedUp) {
  // 64 Gbit/s at 500 MHz moves exactly one 128-bit flit per cycle.
  const ChannelTiming one(ChannelParams{64.0, 0.0}, 500.0);
  EXPECT_DOUBLE_EQ(one.cycles_per_flit, 1.0);
  EXPECT_EQ(one.serialization(1), 1u);
  EXPECT_EQ(one.serialization(17), 17u);
  // 128 Gbit/s at 500 MHz: two flits per cycle.
  const ChannelTiming two(ChannelParams{128.0, 0.0}, 500.0);
  EXPECT_EQ(two.serialization(1), 1u);
  EXPECT_EQ(two.serialization(2), 1u);
  EXPECT_EQ(two.serialization(17), 9u);
  // 75 Gbit/s at 1875 MHz: 3.2 cycles per flit; 5 flits take exactly 16 cycles.
  const ChannelTiming slow(ChannelParams{75.0, 0.0}, 1875.0);
  EXPECT_EQ(slow.serialization(5), 16u);
  EXPECT_EQ(slow.serialization(6), 20u);  // 19.2
}

TEST(Defaults, MatchTable1) {
  const RouterParams router;
  EXPECT_EQ(router.clock_mhz, 500.0);
  EXPECT_DOUBLE_EQ(router.cycle_ns(), 2.0);
  EXPECT_EQ(router.deadlock, DeadlockScheme::Bubble);
  EXPECT_EQ(router.vc_layout().classes, 1);
  EXPECT_TRUE(router.direction_order.empty());

  const ChannelParams link;
  EXPECT_EQ(link.bandwidth_gbps, 75.0);
  EXPECT_EQ(link.latency_ns, 80.0);

  const Config config;
  EXPECT_EQ(config.link.bandwidth_gbps, 75.0);
  EXPECT_EQ(config.link.latency_ns, 80.0);
  EXPECT_EQ(config.endpoint.bandwidth_gbps, 75.0);
  EXPECT_EQ(config.endpoint.latency_ns, 0.0);
  EXPECT_EQ(config.router.clock_mhz, 500.0);
  EXPECT_NO_THROW(config.validate());
}

TEST(Defaults, DirectionOrderIsDimensionOrderPlusBeforeMinus) {
  const RouterParams router;
  const std::vector<Direction> expected{{0, false}, {0, true},  {1, false},
                                        {1, true},  {2, false}, {2, true}};
  EXPECT_EQ(router.resolved_direction_order(3), expected);
  RouterParams custom;
  custom.direction_order = {{1, false}, {0, true}, {1, true}, {0, false}};
  EXPECT_EQ(custom.resolved_direction_order(2), custom.direction_order);
  EXPECT_NO_THROW(custom.validate(2));
}

TEST(Defaults, DatelineHasTwoClasses) {
  RouterParams router;
  router.deadlock = DeadlockScheme::Dateline;
  EXPECT_EQ(router.vc_layout().classes, 2);
  router.deadlock = DeadlockScheme::None;
  EXPECT_EQ(router.vc_layout().classes, 1);
}

TEST(Validate, Topology) {
  auto topo = [](std::vector<int> dims) {
    TopologyParams t;
    t.dims = std::move(dims);
    return t;
  };
  EXPECT_NO_THROW(topo({2}).validate());
  EXPECT_NO_THROW(topo({256, 256}).validate());  // exactly 65536 nodes
  EXPECT_NO_THROW(topo({8, 8, 8, 16}).validate());
  EXPECT_TRUE(throws_config_error([&] { topo({}).validate(); }, "topology.dims"));
  EXPECT_TRUE(throws_config_error([&] { topo({2, 2, 2, 2, 2}).validate(); }, "topology.dims"));
  EXPECT_TRUE(throws_config_error([&] { topo({4, 1, 4}).validate(); }, "topology.dims"));
  EXPECT_TRUE(throws_config_error([&] { topo({4, 0}).validate(); }, "topology.dims"));
  EXPECT_TRUE(throws_config_error([&] { topo({-3, 4}).validate(); }, "topology.dims"));
  EXPECT_TRUE(throws_config_error([&] { topo({256, 257}).validate(); }, "topology.dims"));
  EXPECT_EQ(topo({5, 3}).node_count(), 15);
  // Products past 64 bits (or past int) saturate instead of overflowing to 0 nodes.
  EXPECT_TRUE(throws_config_error(
      [&] {
        topo({65536, 65536, 65536, 65536}).validate();
      },
      "topology.dims"));
  EXPECT_TRUE(throws_config_error(
      [&] {
        topo({2147483647, 2147483647, 2, 2}).validate();
      },
      "topology.dims"));
  EXPECT_EQ(topo({65536, 65536, 65536, 65536}).node_count(), kMaxNodes + 1);
}

// Every number is finite and in a range the model's integer time holds; the message gives it.
TEST(Validate, NumbersAreFiniteAndInRange) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::pair<std::string, std::function<void(Config&, double)>>> keys{
      {"router.clock_mhz", [](Config& c, double v) { c.router.clock_mhz = v; }},
      {"link.latency_ns", [](Config& c, double v) { c.link.latency_ns = v; }},
      {"link.bandwidth_gbps", [](Config& c, double v) { c.link.bandwidth_gbps = v; }},
      {"endpoint.latency_ns", [](Config& c, double v) { c.endpoint.latency_ns = v; }},
      {"pcie.latency_ns", [](Config& c, double v) { c.pcie.latency_ns = v; }},
      {"pcie.transfer_gtps", [](Config& c, double v) { c.pcie.transfer_gtps = v; }},
      {"node.gflops", [](Config& c, double v) { c.node.gflops = v; }},
      {"node.send_overhead_ns", [](Config& c, double v) { c.node.send_overhead_ns = v; }},
      {"app.spmv_mflops", [](Config& c, double v) { c.app.spmv_mflops = v; }},
      {"app.heat_gflops", [](Config& c, double v) { c.app.heat_gflops = v; }},
      {"compute.cache_gbps", [](Config& c, double v) { c.compute.cache_gbps = v; }},
      {"workload.background_rate", [](Config& c, double v) { c.workload.background_rate = v; }},
      {"traffic.idle_cycles", [](Config& c, double v) { c.traffic.idle_cycles = v; }},
  };
  for (const auto& [key, set] : keys) {
    for (double bad : {inf, -inf, nan, 1e300, 1e-300}) {
      const bool zero_allowed =
          key.ends_with("_ns") || key == "workload.background_rate" || key == "traffic.idle_cycles";
      if (bad == 1e-300 && zero_allowed) continue;
      Config c;
      set(c, bad);
      EXPECT_TRUE(throws_config_error([&] { c.validate(); }, key)) << key << " = " << bad;
    }
  }
  Config c;
  c.router.clock_mhz = 5e9;
  try {
    c.validate();
    ADD_FAILURE() << "5e9 MHz accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("from 1 to 100000 MHz"), std::string::npos) << e.what();
  }
}

// A watchdog shorter than the first delivery can take is refused, naming the key and the floor.
TEST(Validate, WatchdogLongerThanTheZeroLoadLatency) {
  Config c;
  const Cycle floor = c.first_delivery_floor();
  EXPECT_GT(floor, 200u);  // 4x4x4, Table 1: 6 hops of 40-cycle links
  c.sim.watchdog_cycles = floor;
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "sim.watchdog_cycles"));
  c.sim.watchdog_cycles = floor + 1;
  EXPECT_NO_THROW(c.validate());
  c.link.latency_ns = 100000;  // 50000 cycles a hop: beyond the default watchdog
  c.sim.watchdog_cycles = SimParams{}.watchdog_cycles;
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "sim.watchdog_cycles"));
  c = Config{};
  c.workload.kind = WorkloadKind::PingPong;
  EXPECT_GT(c.first_delivery_floor(), Config{}.first_delivery_floor() + 300);  // PCIe both ways
}

// Each case changes the defaults and validates for a 2-D torus.
TEST(Validate, Router) {
  EXPECT_NO_THROW(RouterParams{}.validate(3));
  RouterParams r;
  auto validate = [&r] { r.validate(2); };

  r.clock_mhz = 0;
  EXPECT_TRUE(throws_config_error(validate, "router.clock_mhz"));
  r.clock_mhz = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(throws_config_error(validate, "router.clock_mhz"));

  r = {};
  r.direction_order = {{0, false}, {0, true}, {1, false}, {2, true}};  // Z on a 2-D torus
  EXPECT_TRUE(throws_config_error(validate, "router.direction_order"));
  r.direction_order = {{0, false}, {0, true}, {1, false}, {0, true}};  // -X twice, no -Y
  EXPECT_TRUE(throws_config_error(validate, "router.direction_order"));
  r.direction_order = {{0, false}, {0, true}, {1, false}};  // -Y missing
  EXPECT_TRUE(throws_config_error(validate, "router.direction_order"));
  r.direction_order = {{1, true}, {0, true}, {1, false}, {0, false}};
  EXPECT_NO_THROW(validate());

  r = {};
  r.vcs = 0;
  EXPECT_TRUE(throws_config_error(validate, "router.vcs"));
  r.vcs = 9;
  EXPECT_TRUE(throws_config_error(validate, "router.vcs"));
  r.vcs = 8;
  EXPECT_NO_THROW(validate());
  r.deadlock = DeadlockScheme::Dateline;
  r.vcs = 3;
  EXPECT_TRUE(throws_config_error(validate, "router.vcs"));
  r.vcs = 4;
  EXPECT_NO_THROW(validate());

  // Bubble needs two largest packets of buffer; the other schemes one.
  r = {};
  r.buffer_flits = 2 * kMaxPacketFlits;
  EXPECT_NO_THROW(validate());
  r.buffer_flits = 2 * kMaxPacketFlits - 1;
  EXPECT_TRUE(throws_config_error(validate, "router.buffer_flits"));
  r.deadlock = DeadlockScheme::Dateline;
  r.buffer_flits = kMaxPacketFlits;
  EXPECT_NO_THROW(validate());
  r.deadlock = DeadlockScheme::None;
  r.buffer_flits = kMaxPacketFlits - 1;
  EXPECT_TRUE(throws_config_error(validate, "router.buffer_flits"));

  r = {};
  r.pipeline_cycles = 0;
  EXPECT_TRUE(throws_config_error(validate, "router.pipeline_cycles"));
}

TEST(Validate, ChannelKeyCarriesTheSection) {
  auto channel = [](double bandwidth_gbps, double latency_ns, const char* section) {
    return [=] { ChannelParams{bandwidth_gbps, latency_ns}.validate(section); };
  };
  EXPECT_NO_THROW(channel(75.0, 0.0, "endpoint")());
  EXPECT_TRUE(throws_config_error(channel(0.0, 80.0, "link"), "link.bandwidth_gbps"));
  EXPECT_TRUE(throws_config_error(channel(-1.0, 80.0, "endpoint"), "endpoint.bandwidth_gbps"));
  EXPECT_TRUE(throws_config_error(channel(75.0, -1.0, "link"), "link.latency_ns"));
  EXPECT_TRUE(throws_config_error(channel(75.0, -0.5, "endpoint"), "endpoint.latency_ns"));
  EXPECT_TRUE(throws_config_error(channel(75.0, std::nan(""), "link"), "link.latency_ns"));
}

TEST(Validate, Traffic) {
  const TopologyParams torus;  // 4x4x4
  auto traffic = [](double rate, int flits) {
    TrafficParams t;
    t.rate = rate;
    t.packet_flits = flits;
    return t;
  };
  EXPECT_NO_THROW(traffic(0.0, 1).validate(torus));
  EXPECT_NO_THROW(traffic(1.0, 16).validate(torus));
  EXPECT_EQ(traffic(0.5, 16).mean_wire_flits(), kMaxPacketFlits);
  EXPECT_TRUE(throws_config_error([&] { traffic(1.5, 16).validate(torus); }, "traffic.rate"));
  EXPECT_TRUE(throws_config_error([&] { traffic(-0.1, 16).validate(torus); }, "traffic.rate"));
  EXPECT_TRUE(
      throws_config_error([&] { traffic(0.3, 0).validate(torus); }, "traffic.packet_flits"));
  EXPECT_TRUE(
      throws_config_error([&] { traffic(0.3, 17).validate(torus); }, "traffic.packet_flits"));
}

TEST(Validate, TrafficPatternsAndInjection) {
  const TopologyParams torus;  // 4x4x4: 64 nodes, diameter 6
  const auto check = [&](const char* key, auto change) {
    TrafficParams t;
    change(t);
    return throws_config_error([&] { t.validate(torus); }, key);
  };
  TrafficParams bimodal;
  bimodal.bimodal_flits = {2, 16};
  bimodal.bimodal_fraction = 0.25;
  EXPECT_DOUBLE_EQ(bimodal.mean_wire_flits(), 1 + 0.25 * 2 + 0.75 * 16);
  EXPECT_TRUE(check("traffic.bimodal_flits", [](TrafficParams& t) { t.bimodal_flits = {4}; }));
  EXPECT_TRUE(check("traffic.bimodal_flits", [](TrafficParams& t) {
    t.bimodal_flits = {4, 70000};
  }));
  EXPECT_TRUE(check("traffic.message_flits", [](TrafficParams& t) { t.message_flits = -1; }));
  // A message of 40 data flits is three packets: 16, 16 and 8 data flits, three headers.
  TrafficParams long_messages;
  long_messages.message_flits = 40;
  EXPECT_DOUBLE_EQ(long_messages.mean_wire_flits(), 43);
  EXPECT_TRUE(check("traffic.bimodal_fraction", [](TrafficParams& t) {
    t.bimodal_flits = {4, 16};
    t.bimodal_fraction = 1.5;
  }));
  EXPECT_TRUE(check("traffic.local_distance", [](TrafficParams& t) {
    t.pattern = TrafficPattern::Local;
    t.local_distance = 7;
  }));
  EXPECT_TRUE(check("traffic.local_rate", [](TrafficParams& t) { t.local_rate = -0.1; }));
  EXPECT_TRUE(check("traffic.hotspot_node", [](TrafficParams& t) { t.hotspot_node = {4, 0, 0}; }));
  // 64 nodes = 2^6: transpose swaps two halves of 3 bits; 32 = 2^5 has no halves.
  TrafficParams transpose;
  transpose.pattern = TrafficPattern::Transpose;
  EXPECT_NO_THROW(transpose.validate(torus));
  const TopologyParams odd{.dims = {4, 4, 2}};  // 32 nodes: 2^5
  EXPECT_TRUE(throws_config_error([&] { transpose.validate(odd); }, "traffic.pattern"));
  const TopologyParams three{.dims = {3, 3}};
  TrafficParams complement;
  complement.pattern = TrafficPattern::BitComplement;
  EXPECT_TRUE(throws_config_error([&] { complement.validate(three); }, "traffic.pattern"));
  EXPECT_TRUE(check("traffic.fft_rows", [](TrafficParams& t) {
    t.pattern = TrafficPattern::Fft3d;
    t.fft_rows = 9;
    t.fft_cols = 8;
  }));
  EXPECT_TRUE(check("traffic.fft_phase", [](TrafficParams& t) {
    t.pattern = TrafficPattern::Fft3d;
    t.fft_rows = t.fft_cols = 8;
    t.fft_phase = 3;
  }));
  EXPECT_TRUE(check("traffic.burst_cycles", [](TrafficParams& t) {
    t.injection = InjectionProcess::OnOff;
    t.burst_cycles = 0.5;
  }));
  // On/off at 0.3 flits/node/cycle (17-flit packets) with bursts of 1 and pauses of 99 cycles
  // would need 1.76 packets per cycle while on.
  EXPECT_TRUE(check("traffic.rate", [](TrafficParams& t) {
    t.injection = InjectionProcess::OnOff;
    t.burst_cycles = 1;
    t.idle_cycles = 99;
  }));
}

TEST(Validate, Sim) {
  EXPECT_NO_THROW(SimParams{}.validate());
  SimParams lt;
  lt.mode = SimMode::Lt;
  EXPECT_NO_THROW(lt.validate());
  SimParams no_quantum;
  no_quantum.quantum_cycles = 0;
  EXPECT_TRUE(throws_config_error([&] { no_quantum.validate(); }, "sim.quantum_cycles"));
  SimParams no_measure;
  no_measure.measure_cycles = 0;
  EXPECT_TRUE(throws_config_error([&] { no_measure.validate(); }, "sim.measure_cycles"));
  SimParams no_watchdog;
  no_watchdog.watchdog_cycles = 0;
  EXPECT_TRUE(throws_config_error([&] { no_watchdog.validate(); }, "sim.watchdog_cycles"));
  SimParams huge_quantum;
  huge_quantum.quantum_cycles = 1000000000;
  EXPECT_TRUE(throws_config_error([&] { huge_quantum.validate(); }, "sim.quantum_cycles"));
  SimParams huge_measure;
  huge_measure.measure_cycles = std::numeric_limits<Cycle>::max();
  EXPECT_TRUE(throws_config_error([&] { huge_measure.validate(); }, "sim.measure_cycles"));
}

TEST(Validate, ConfigChecksEverySection) {
  Config c;
  c.endpoint.bandwidth_gbps = 0;
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "endpoint.bandwidth_gbps"));
  c = Config{};
  c.link.latency_ns = -5;
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "link.latency_ns"));
  c = Config{};
  c.topology.dims = {4, 4};
  c.router.direction_order = {{0, false}, {0, true}, {1, false}, {1, true}, {2, false}, {2, true}};
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "router.direction_order"));
  c.topology.dims = {4, 4, 4};
  EXPECT_NO_THROW(c.validate());
  c.traffic.packet_flits = 20;
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "traffic.packet_flits"));
  c = Config{};
  c.topology.dims = {1};
  EXPECT_TRUE(throws_config_error([&] { c.validate(); }, "topology.dims"));
}

}  // namespace
}  // namespace angara
