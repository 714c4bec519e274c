// The config loader: defaults, round trip and overrides (partitions:
// config_partitions_test.cpp; bad configs: config_errors_test.cpp; --help and the example
// files: config_help_test.cpp).

#include "platform/config/config_loader.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "models/core/config_error.h"
#include "regress/support/dotted_keys.h"
#include "regress/support/temp_file.h"

namespace angara {
namespace {

using test::dotted_keys;

Config load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_config(text, "test.toml", overrides);
}

// The JSON form written back as a TOML file: JSON scalars and arrays are valid TOML values.
constexpr const char* kFullConfig = R"(
[topology]
kind = "torus"
dims = [8, 6]
k = 2
levels = 5
[router]
clock_mhz = 1000.0
routing = "dimension_order"
direction_order = ["Y", "+X", "-X"]
deadlock = "dateline"
vcs = 4
buffer_flits = 32
pipeline_cycles = 5
[link]
bandwidth_gbps = 100.0
latency_ns = 40.0
[endpoint]
bandwidth_gbps = 50.0
latency_ns = 10.0
[collective]
buffer_flits = 40
table_cycles = 2
analysis_cycles = 0
route_cycles = 3
broadcaster_cycles = 2
reducer_cycles = 4
reducer_flit_cycles = 2
reducer_result_cycles = 3
reduces_in_flight = 12
credit_batch = 4
report_results = 64
report_cycles = 2048
trees = 3
roots = [[1, 2], [0, 0]]
transit = [[7, 5]]
tree = [{ id = 5, rows = [{ node = [0, 0], root = true, to_root = "", pe = true, dirs = [] }] }]
[workload]
kind = "collective"
op = "allreduce"
reduction = "max"
tree = 2
source = [3, 3]
destination = [4, 0]
payload_flits = 9
repetitions = 4
overlap = true
background_rate = 0.25
all_trees = true
algorithm = "binomial"
peer = [1, 1]
sizes = [8, 64]
messages = 7
bytes = 4096
segment_bytes = 1024
values = false
subnet_trees = 2
[traffic]
pattern = "hotspot"
injection = "on_off"
rate = 0.25
packet_flits = 8
message_flits = 40
bimodal_flits = [2, 16]
bimodal_fraction = 0.25
local_rate = 0.75
local_distance = 2
hotspot_rate = 0.2
hotspot_node = [1, 1]
probes = 4
probe_src = [0, 1]
probe_dst = [3, 2]
fft_rows = 2
fft_cols = 4
fft_phase = 2
burst_cycles = 40.0
idle_cycles = 10.0
[sim]
mode = "at"
seed = 42
warmup_cycles = 100
measure_cycles = 500
drain_cycles = 1000
watchdog_cycles = 3000
quantum_cycles = 250
train_packets = 8
lt_buffers = true
progress = false
[pcie]
lanes = 8
transfer_gtps = 8.0
encoding = "128b130b"
max_payload_bytes = 512
tlp_overhead_bytes = 20
latency_ns = 250.0
[node]
gflops = 11.0
send_overhead_ns = 150.0
recv_overhead_ns = 120.0
pio_max_bytes = 128
tx_buffer_bytes = 8192
rx_ring_bytes = 32768
max_message_bytes = 2048
channels = 3
[app]
rows = 1024000
nonzeros_per_row = 7
spmv_mflops = 600.0
grid = [640, 320]
heat_gflops = 12.5
flops_per_cell = 20
[compute]
model = "roofline"
memory_gbps = 25.0
cache_gbps = 120.0
cache_mib = 15.0
region_overhead_ns = 800.0
table = "times.csv"
[trace]
nodes = [[1, 2]]
blocks = ["vcup", "reducer"]
file = "out.vcd"
[rtl]
reducer = "drive"
vcup = "model"
)";

TEST(ConfigLoader, EmptyFileGivesTable1Defaults) {
  const Config config = load("");
  EXPECT_EQ(config.topology.dims, (std::vector<int>{4, 4, 4}));
  EXPECT_DOUBLE_EQ(config.router.clock_mhz, 500.0);
  EXPECT_DOUBLE_EQ(config.link.bandwidth_gbps, 75.0);
  EXPECT_DOUBLE_EQ(config.link.latency_ns, 80.0);
  EXPECT_DOUBLE_EQ(config.endpoint.bandwidth_gbps, 75.0);
  EXPECT_DOUBLE_EQ(config.endpoint.latency_ns, 0.0);
  EXPECT_EQ(config.router.deadlock, DeadlockScheme::Bubble);
  EXPECT_TRUE(config.router.direction_order.empty());
  EXPECT_EQ(config.sim.mode, SimMode::At);
  EXPECT_EQ(config_to_json(config), config_to_json(Config{}));
}

TEST(ConfigLoader, FullFileIsReadIntoEveryField) {
  const Config config = load(kFullConfig);
  EXPECT_EQ(config.topology.dims, (std::vector<int>{8, 6}));
  EXPECT_DOUBLE_EQ(config.router.clock_mhz, 1000.0);
  const std::vector<Direction> order{{1, false}, {1, true}, {0, false}, {0, true}};
  EXPECT_EQ(config.router.direction_order, order);
  EXPECT_EQ(config.router.deadlock, DeadlockScheme::Dateline);
  EXPECT_EQ(config.router.vcs, 4);
  EXPECT_EQ(config.router.buffer_flits, 32);
  EXPECT_EQ(config.router.pipeline_cycles, 5);
  EXPECT_EQ(config.sim.mode, SimMode::At);  // tracing needs AT
  EXPECT_EQ(config.collective.buffer_flits, 40);
  EXPECT_EQ(config.collective.table_cycles, 2);
  EXPECT_EQ(config.collective.analysis_cycles, 0);
  EXPECT_EQ(config.collective.route_cycles, 3);
  EXPECT_EQ(config.collective.broadcaster_cycles, 2);
  EXPECT_EQ(config.collective.reducer_cycles, 4);
  EXPECT_EQ(config.collective.reducer_flit_cycles, 2);
  EXPECT_EQ(config.collective.reducer_result_cycles, 3);
  EXPECT_EQ(config.collective.reduces_in_flight, 12);
  EXPECT_EQ(config.collective.report_cycles, 2048);
  EXPECT_EQ(config.collective.trees, 3);
  EXPECT_EQ(config.collective.roots, (std::vector<std::vector<int>>{{1, 2}, {0, 0}}));
  EXPECT_EQ(config.collective.transit, (std::vector<std::vector<int>>{{7, 5}}));
  ASSERT_EQ(config.collective.tree.size(), 1u);
  EXPECT_EQ(config.collective.tree[0].id, 5);
  EXPECT_TRUE(config.collective.tree[0].rows.at(0).root);
  EXPECT_EQ(config.workload.kind, WorkloadKind::Collective);
  EXPECT_EQ(config.workload.op, CollectiveOp::Allreduce);
  EXPECT_EQ(config.workload.reduction, Reduction::Max);
  EXPECT_EQ(config.workload.tree, 2);
  EXPECT_EQ(config.workload.source, (std::vector<int>{3, 3}));
  EXPECT_EQ(config.workload.destination, (std::vector<int>{4, 0}));
  EXPECT_EQ(config.workload.payload_flits, 9);
  EXPECT_EQ(config.workload.repetitions, 4);
  EXPECT_TRUE(config.workload.overlap);
  EXPECT_DOUBLE_EQ(config.workload.background_rate, 0.25);
  EXPECT_TRUE(config.workload.all_trees);
  EXPECT_EQ(config.trace.nodes, (std::vector<std::vector<int>>{{1, 2}}));
  EXPECT_EQ(config.trace.blocks, (std::vector<std::string>{"vcup", "reducer"}));
  EXPECT_EQ(config.trace.file, "out.vcd");
  EXPECT_EQ(config.pcie.lanes, 8);
  EXPECT_DOUBLE_EQ(config.pcie.transfer_gtps, 8.0);
  EXPECT_EQ(config.pcie.encoding, PcieEncoding::B128b130b);
  EXPECT_EQ(config.pcie.max_payload_bytes, 512);
  EXPECT_EQ(config.pcie.tlp_overhead_bytes, 20);
  EXPECT_DOUBLE_EQ(config.pcie.latency_ns, 250.0);
  EXPECT_EQ(config.workload.algorithm, SoftwareAlgorithm::Binomial);
  EXPECT_EQ(config.workload.peer, (std::vector<int>{1, 1}));
  EXPECT_EQ(config.workload.sizes, (std::vector<int>{8, 64}));
  EXPECT_EQ(config.workload.messages, 7);
  EXPECT_DOUBLE_EQ(config.node.gflops, 11.0);
  EXPECT_DOUBLE_EQ(config.node.send_overhead_ns, 150.0);
  EXPECT_DOUBLE_EQ(config.node.recv_overhead_ns, 120.0);
  EXPECT_EQ(config.node.pio_max_bytes, 128);
  EXPECT_EQ(config.app.rows, 1024000u);
  EXPECT_EQ(config.app.nonzeros_per_row, 7);
  EXPECT_EQ(config.app.grid, (std::vector<int>{640, 320}));
  EXPECT_DOUBLE_EQ(config.app.heat_gflops, 12.5);
  EXPECT_EQ(config.compute.model, ComputeModelKind::Roofline);
  EXPECT_DOUBLE_EQ(config.compute.memory_gbps, 25.0);
  EXPECT_DOUBLE_EQ(config.compute.cache_gbps, 120.0);
  EXPECT_DOUBLE_EQ(config.compute.cache_mib, 15.0);
  EXPECT_DOUBLE_EQ(config.compute.region_overhead_ns, 800.0);
  EXPECT_EQ(config.compute.table, "times.csv");  // read only with model "table"
  EXPECT_EQ(config.node.tx_buffer_bytes, 8192);
  EXPECT_EQ(config.node.rx_ring_bytes, 32768);
  EXPECT_EQ(config.node.max_message_bytes, 2048);
  EXPECT_EQ(config.node.channels, 3);
  EXPECT_DOUBLE_EQ(config.link.bandwidth_gbps, 100.0);
  EXPECT_DOUBLE_EQ(config.link.latency_ns, 40.0);
  EXPECT_DOUBLE_EQ(config.endpoint.bandwidth_gbps, 50.0);
  EXPECT_DOUBLE_EQ(config.endpoint.latency_ns, 10.0);
  EXPECT_DOUBLE_EQ(config.traffic.rate, 0.25);
  EXPECT_EQ(config.traffic.packet_flits, 8);
  EXPECT_EQ(config.traffic.pattern, TrafficPattern::Hotspot);
  EXPECT_EQ(config.traffic.injection, InjectionProcess::OnOff);
  EXPECT_EQ(config.traffic.message_flits, 40);
  EXPECT_EQ(config.traffic.bimodal_flits, (std::vector<int>{2, 16}));
  EXPECT_DOUBLE_EQ(config.traffic.bimodal_fraction, 0.25);
  EXPECT_DOUBLE_EQ(config.traffic.local_rate, 0.75);
  EXPECT_EQ(config.traffic.local_distance, 2);
  EXPECT_DOUBLE_EQ(config.traffic.hotspot_rate, 0.2);
  EXPECT_EQ(config.traffic.hotspot_node, (std::vector<int>{1, 1}));
  EXPECT_EQ(config.traffic.fft_rows, 2);
  EXPECT_EQ(config.traffic.fft_cols, 4);
  EXPECT_EQ(config.traffic.fft_phase, 2);
  EXPECT_DOUBLE_EQ(config.traffic.burst_cycles, 40.0);
  EXPECT_DOUBLE_EQ(config.traffic.idle_cycles, 10.0);
  EXPECT_EQ(config.sim.seed, 42u);
  EXPECT_EQ(config.sim.warmup_cycles, 100u);
  EXPECT_EQ(config.sim.measure_cycles, 500u);
  EXPECT_EQ(config.sim.drain_cycles, 1000u);
  EXPECT_EQ(config.sim.watchdog_cycles, 3000u);
  EXPECT_EQ(config.sim.quantum_cycles, 250u);
  EXPECT_EQ(config.sim.train_packets, 8);
  EXPECT_TRUE(config.sim.lt_buffers);
  EXPECT_FALSE(config.sim.progress);
  EXPECT_EQ(config.rtl.reducer, BlockImpl::Drive);
  EXPECT_EQ(config.rtl.vcup, BlockImpl::Model);  // analysis_cycles = 0 above: the RTL refuses it
}

TEST(ConfigLoader, BookSimsPatternNamesAreReadAsOursAndWrittenAsOurs) {
  const std::pair<const char*, TrafficPattern> names[] = {
      {"bitcomp", TrafficPattern::BitComplement},
      {"bitrev", TrafficPattern::BitReverse},
      {"randperm", TrafficPattern::RandomPermutation},
      {"neighbor", TrafficPattern::Neighbour}};
  for (const auto& [booksim, ours] : names) {
    const Config config = load(fmt::format("[traffic]\npattern = \"{}\"", booksim));
    EXPECT_EQ(config.traffic.pattern, ours) << booksim;
    EXPECT_NE(config_to_json(config)["traffic"]["pattern"], booksim);
  }
}

TEST(ConfigLoader, TheRtlVcUpIsAKeyOfItsOwn) {
  const Config config = load("[rtl]\nvcup = \"check\"");
  EXPECT_EQ(config.rtl.vcup, BlockImpl::Check);
  EXPECT_EQ(config.rtl.reducer, BlockImpl::Model);
}

TEST(ConfigLoader, FullFileRoundTripsThroughJsonAndToml) {
  const auto json = config_to_json(load(kFullConfig));
  // Every key of the file appears in the JSON, and nothing else.
  const auto file = toml::parse(kFullConfig);
  std::set<std::string> file_keys;
  for (const auto& [section, table] : file) {
    for (const auto& [key, value] : *table.as_table()) {
      file_keys.insert(std::string(section.str()) + "." + std::string(key.str()));
    }
  }
  const auto keys = dotted_keys(json);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()), file_keys);

  EXPECT_EQ(json["router"]["direction_order"], nlohmann::ordered_json({"+Y", "-Y", "+X", "-X"}));
  EXPECT_EQ(json["router"]["deadlock"], "dateline");
  EXPECT_EQ(config_to_json(load(config_to_toml(load(kFullConfig)))), json);
}

// Good values the kind does not read are listed (angara-sim warns of them); defaults and the
// keys the kind reads are not.
TEST(ConfigLoader, UnusedKeysAreThoseTheKindDoesNotRead) {
  EXPECT_TRUE(unused_keys(load_config("", "test", {})).empty());
  const Config synthetic =
      load_config("", "test", {"app.grid=[64, 64]", "workload.sizes=[8]", "traffic.rate=0.5"});
  EXPECT_EQ(unused_keys(synthetic),
            (std::vector<std::string>{"workload.sizes = [8]", "app.grid = [64,64]"}));
  const Config heat = load_config("", "test",
                                  {"workload.kind=\"heat\"", "app.grid=[64, 64]",
                                   "workload.repetitions=3", "workload.op=\"reduce\""});
  EXPECT_EQ(unused_keys(heat), std::vector<std::string>{"workload.op = \"reduce\""});
}

TEST(ConfigLoader, DefaultsRoundTripThroughJsonAndToml) {
  const auto json = config_to_json(Config{});
  EXPECT_EQ(json["router"]["direction_order"],
            nlohmann::ordered_json({"+X", "-X", "+Y", "-Y", "+Z", "-Z"}));
  EXPECT_EQ(json["sim"]["mode"], "at");
  EXPECT_EQ(config_to_json(load(config_to_toml(Config{}))), json);
}

// A fat tree has no direction order: written back as [], not a torus's resolved order, which the
// fat tree would refuse (a sweep's point configs are written this way).
TEST(ConfigLoader, FaultsRoundTripAndStayOutOfResultsWhenNothingFails) {
  const Config c = load(
      "[faults]\nlinks = [[0, 0, 0, \"+X\"], [1, 2, 3, \"-Z\"]]\nnodes = [[3, 3, 3]]\n"
      "random_links = 0.02\n");
  ASSERT_EQ(c.faults.links.size(), 2U);
  EXPECT_EQ(c.faults.links[1].node, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(c.faults.links[1].dir, "-Z");
  EXPECT_EQ(c.faults.nodes, (std::vector<std::vector<int>>{{3, 3, 3}}));
  EXPECT_EQ(c.fabric().router.route_phases, 2);
  EXPECT_EQ(config_to_json(load(config_to_toml(c))), config_to_json(c));
  EXPECT_EQ(config_to_json(c)["faults"]["links"].dump(), R"([[0,0,0,"+X"],[1,2,3,"-Z"]])");
  EXPECT_FALSE(config_to_json(Config{}).contains("faults"));
  EXPECT_FALSE(config_to_json(load("[faults]\nrandom_links = 0.0\n")).contains("faults"));
  EXPECT_EQ(Config{}.fabric().router.route_phases, 1);
}

// Links failed from the start write no fail_at_cycle, so their results stay as they were.
TEST(ConfigLoader, FailAtCycleRoundTripsAndStaysOutWhenTheLinksFailFromTheStart) {
  const Config c = load("[faults]\nlinks = [[0, 0, 0, \"+X\"]]\nfail_at_cycle = 2500\n");
  EXPECT_EQ(c.faults.fail_at_cycle, 2500U);
  EXPECT_EQ(config_to_json(c)["faults"]["fail_at_cycle"], 2500);
  EXPECT_EQ(config_to_json(load(config_to_toml(c))), config_to_json(c));
  const Config from_start = load("[faults]\nlinks = [[0, 0, 0, \"+X\"]]\nfail_at_cycle = 0\n");
  EXPECT_FALSE(config_to_json(from_start)["faults"].contains("fail_at_cycle"));
  EXPECT_EQ(config_to_json(load(config_to_toml(from_start))), config_to_json(from_start));
}

TEST(ConfigLoader, FatTreeRoundTripsThroughToml) {
  const Config fat_tree = load("[topology]\nkind = \"fat_tree\"\nk = 4\nlevels = 2");
  EXPECT_EQ(config_to_json(fat_tree)["router"]["direction_order"], nlohmann::ordered_json::array());
  EXPECT_EQ(config_to_json(load(config_to_toml(fat_tree))), config_to_json(fat_tree));
}

TEST(ConfigLoader, IntegerIsAcceptedForAFloatKey) {
  EXPECT_DOUBLE_EQ(load("[router]\nclock_mhz = 250").router.clock_mhz, 250.0);
}

TEST(ConfigLoader, DirectionOrderMixesDimensionsAndExplicitDirections) {
  const Config config = load(
      "[topology]\ndims = [4, 4]\n[router]\n"
      "direction_order = [\"-Y\", \"x\", \"+Y\"]");
  const std::vector<Direction> order{{1, true}, {0, false}, {0, true}, {1, false}};
  EXPECT_EQ(config.router.direction_order, order);
}

TEST(ConfigLoader, OverridesAreParsedAsTomlAndWinOverTheFile) {
  const Config config = load("[traffic]\nrate = 0.1\n",
                             {"topology.dims=[8,8]", "traffic.rate=0.5", "router.deadlock=dateline",
                              "sim.seed = 7", "sim.mode=\"at\"", "sim.progress=false"});
  EXPECT_EQ(config.topology.dims, (std::vector<int>{8, 8}));
  EXPECT_DOUBLE_EQ(config.traffic.rate, 0.5);
  EXPECT_EQ(config.router.deadlock, DeadlockScheme::Dateline);
  EXPECT_EQ(config.sim.seed, 7u);
  EXPECT_FALSE(config.sim.progress);
}

TEST(ConfigLoader, LaterOverrideWins) {
  EXPECT_DOUBLE_EQ(load("", {"traffic.rate=0.2", "traffic.rate=0.4"}).traffic.rate, 0.4);
}

// A bad config: the text, overrides, the key the error must name and a piece of its rule.
TEST(ConfigLoader, ComputeTableFileIsReadAtLoad) {
  const test::TempFile file("work_size,time_ns\n1000,5000\n2000,abc\n");
  const std::string text = "[compute]\nmodel = \"table\"\ntable = \"" + file.path() + "\"\n";
  try {
    load(text);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key(), "compute.table");
    EXPECT_NE(std::string(error.what()).find("line 3"), std::string::npos) << error.what();
  }
  file.write("1000,5000\n2000,9000\n");
  EXPECT_EQ(load(text).compute.model, ComputeModelKind::Table);
}

TEST(ConfigLoader, MissingFileIsAConfigError) {
  const std::filesystem::path path = "/nonexistent/angara.toml";
  try {
    load_config_file(path, {});
    FAIL() << "no ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key(), path.string());
    EXPECT_EQ(error.subject(), ConfigError::Subject::File);
    EXPECT_STREQ(error.what(), "file '/nonexistent/angara.toml': no such config file");
  }
}

}  // namespace
}  // namespace angara
