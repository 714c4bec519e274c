// One ConfigError naming the key and the rule for each kind of bad config the loader reads.

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "platform/config/config_loader.h"

namespace angara {
namespace {

struct BadConfig {
  const char* name;
  std::string text;
  std::vector<std::string> overrides;
  std::string key;
  std::string rule;
};

void PrintTo(const BadConfig& bad, std::ostream* out) {  // NOLINT: GoogleTest's name
  *out << bad.name;
}

class BadConfigTest : public testing::TestWithParam<BadConfig> {};

TEST_P(BadConfigTest, ThrowsConfigErrorNamingKeyAndRule) {
  const auto& bad = GetParam();
  try {
    load_config(bad.text, "test.toml", bad.overrides);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key(), bad.key);
    const std::string what = error.what();
    EXPECT_NE(what.find(bad.key), std::string::npos) << what;
    EXPECT_NE(what.find(bad.rule), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ConfigLoader, BadConfigTest,
    testing::Values(
        BadConfig{"UnknownKey",
                  "[router]\nbufer_flits = 64",
                  {},
                  "router.bufer_flits",
                  "unknown key; did you mean router.buffer_flits? known keys in [router]: "
                  "clock_mhz, routing, direction_order"},
        BadConfig{"UnknownKeyNothingNear",
                  "[router]\nmystery = 1",
                  {},
                  "router.mystery",
                  "unknown key; known keys in [router]: clock_mhz"},
        BadConfig{
            "UnknownKeyBySet", "", {"router.bufer_flits=64"}, "router.bufer_flits", "buffer_flits"},
        BadConfig{"UnknownSection",
                  "[routr]\nvcs = 2",
                  {},
                  "routr.vcs",
                  "unknown section [routr]; did you mean router.vcs? known sections: topology, "
                  "router, link"},
        BadConfig{"TopLevelKey",
                  "rate = 0.3",
                  {},
                  "rate",
                  "0.3: a key outside any section; did you mean traffic.rate?"},
        BadConfig{"SectionNotTable", "router = 3", {}, "router", "expected a table"},
        BadConfig{
            "DimensionBelow2", "[topology]\ndims = [4, 1]", {}, "topology.dims", "at least 2"},
        BadConfig{"MoreThan4Dims",
                  "[topology]\ndims = [2, 2, 2, 2, 2]",
                  {},
                  "topology.dims",
                  "1 to 4 dimensions"},
        BadConfig{"NoDims", "[topology]\ndims = []", {}, "topology.dims", "1 to 4 dimensions"},
        BadConfig{"UnknownTopology",
                  "[topology]\nkind = \"mesh\"",
                  {},
                  "topology.kind",
                  "unknown topology; known: torus, fat_tree"},
        BadConfig{"FatTreeRadix",
                  "[topology]\nkind = \"fat_tree\"\nk = 9",
                  {},
                  "topology.k",
                  "k must be 2 to 8"},
        BadConfig{"FatTreeTooManyNodes",
                  "[topology]\nkind = \"fat_tree\"\nk = 8\nlevels = 6",
                  {},
                  "topology.levels",
                  "at most 65536 nodes"},
        BadConfig{"FatTreeCollective",
                  "[topology]\nkind = \"fat_tree\"\n[workload]\nkind = \"collective\"",
                  {},
                  "workload.kind",
                  "synthetic traffic only"},
        BadConfig{"NegativeRate", "[traffic]\nrate = -0.1", {}, "traffic.rate", "between 0 and 1"},
        BadConfig{"RateAbove1", "[traffic]\nrate = 1.5", {}, "traffic.rate", "between 0 and 1"},
        BadConfig{"PacketOver16",
                  "[traffic]\npacket_flits = 17",
                  {},
                  "traffic.packet_flits",
                  "1 to 16 data flits"},
        BadConfig{"UnknownRouting",
                  "[router]\nrouting = \"west_first\"",
                  {},
                  "router.routing",
                  "\"west_first\": unknown routing; known: dimension_order, adaptive"},
        BadConfig{"AdaptiveWithoutAnAdaptiveVc",
                  "[router]\nrouting = \"adaptive\"\ndeadlock = \"dateline\"\nvcs = 2",
                  {},
                  "router.vcs",
                  "adaptive routing needs at least 3 VCs"},
        BadConfig{"UnknownDeadlock",
                  "",
                  {"router.deadlock=escape"},
                  "router.deadlock",
                  "\"escape\": unknown deadlock scheme; known: bubble, dateline, none"},
        BadConfig{"UnknownPattern",
                  "[traffic]\npattern = \"hot_spot\"",
                  {},
                  "traffic.pattern",
                  "unknown traffic pattern; did you mean hotspot? known: uniform, local, hotspot"},
        BadConfig{"UnknownMode", "[sim]\nmode = \"ca\"", {}, "sim.mode", "known: at, lt"},
        BadConfig{"StringForInteger",
                  "[router]\nvcs = \"two\"",
                  {},
                  "router.vcs",
                  "\"two\": expected an integer"},
        BadConfig{
            "FloatForInteger", "[router]\nvcs = 2.0", {}, "router.vcs", "2.0: expected an integer"},
        BadConfig{"NegativeSeed",
                  "[sim]\nseed = -1",
                  {},
                  "sim.seed",
                  "-1: expected a non-negative integer"},
        BadConfig{"NegativeCycles",
                  "",
                  {"sim.drain_cycles=-5"},
                  "sim.drain_cycles",
                  "expected a non-negative integer"},
        BadConfig{"StringForFloat",
                  "[link]\nlatency_ns = \"80ns\"",
                  {},
                  "link.latency_ns",
                  "expected a number"},
        BadConfig{
            "IntegerForBool", "[sim]\nprogress = 1", {}, "sim.progress", "expected true or false"},
        BadConfig{"FloatInDims",
                  "[topology]\ndims = [4, 4.5]",
                  {},
                  "topology.dims",
                  "expected an array of integers"},
        BadConfig{"UnknownDirection",
                  "[router]\ndirection_order = [\"X\", \"Q\"]",
                  {},
                  "router.direction_order",
                  "unknown direction \"Q\""},
        BadConfig{"DirectionOutsideTorus",
                  "[topology]\ndims = [4, 4]\n[router]\n"
                  "direction_order = [\"X\", \"Y\", \"Z\"]",
                  {},
                  "router.direction_order",
                  "+Z is not a direction"},
        BadConfig{"SpmvRowsNotInEqualBlocks",
                  "[workload]\nkind = \"spmv\"\nalgorithm = \"subnet\"\n[app]\nrows = 1000\n",
                  {},
                  "app.rows",
                  "equal blocks: a multiple of the node count (64)"},
        BadConfig{
            "SpmvNoNonzeros",
            "[workload]\nkind = \"spmv\"\nalgorithm = \"subnet\"\n[app]\nnonzeros_per_row = 0\n",
            {},
            "app.nonzeros_per_row",
            "must be from 1 to 1000000 non-zeros"},
        BadConfig{"HeatGridSmallerThanTheMachine",
                  "[workload]\nkind = \"heat\"\n[app]\ngrid = [4, 4]\n",
                  {},
                  "app.grid",
                  "at least one cell per node (64 nodes)"},
        BadConfig{"HeatGridNot2D",
                  "[workload]\nkind = \"heat\"\n[app]\ngrid = [640, 640, 2]\n",
                  {},
                  "app.grid",
                  "two sizes [x, y] of 1 to 16777216 cells"},
        BadConfig{"HeatRateZero",
                  "[workload]\nkind = \"heat\"\n[app]\nheat_gflops = 0\n",
                  {},
                  "app.heat_gflops",
                  "must be a finite number from 1e-06 to 1000000 GFlop/s"},
        BadConfig{"SpmvByTree",
                  "[workload]\nkind = \"spmv\"\n",
                  {},
                  "workload.algorithm",
                  "'workload.algorithm' = \"tree\": spmv allgathers by recursive_doubling or over"},
        BadConfig{"UnknownComputeModel",
                  "[compute]\nmodel = \"ecm\"\n",
                  {},
                  "compute.model",
                  "unknown compute model; known: flat, roofline, table"},
        BadConfig{"MemoryBandwidthZero",
                  "[compute]\nmemory_gbps = 0\n",
                  {},
                  "compute.memory_gbps",
                  "must be a finite number from 0.001 to 1000000 GB/s"},
        BadConfig{"CacheBandwidthNegative",
                  "[compute]\ncache_gbps = -1\n",
                  {},
                  "compute.cache_gbps",
                  "must be a finite number from 0.001 to 1000000 GB/s"},
        BadConfig{"CacheSizeNegative",
                  "[compute]\ncache_mib = -20\n",
                  {},
                  "compute.cache_mib",
                  "must be a finite number from 0 to 1000000 MiB"},
        BadConfig{"RegionOverheadNegative",
                  "[compute]\nregion_overhead_ns = -5\n",
                  {},
                  "compute.region_overhead_ns",
                  "must be a finite number from 0 to 1000000 ns"},
        BadConfig{"TableModelWithoutAFile",
                  "[compute]\nmodel = \"table\"\n",
                  {},
                  "compute.table",
                  "needs a CSV file of work_size,time_ns"},
        BadConfig{"TableFileMissing",
                  "[compute]\nmodel = \"table\"\ntable = \"/nonexistent/times.csv\"\n",
                  {},
                  "compute.table",
                  "\"/nonexistent/times.csv\": no such file"},
        BadConfig{"TrainOfNoPackets",
                  "[sim]\ntrain_packets = 0\n",
                  {},
                  "sim.train_packets",
                  "1..4096 packets"},
        // A flag and a file are called so, not "config key".
        BadConfig{"SetWithoutEquals",
                  "",
                  {"traffic.rate"},
                  "--set",
                  "flag '--set' = \"traffic.rate\": expected section.key=value"},
        BadConfig{"SetWithoutSection", "", {"rate=0.5"}, "--set", "section.key=value"},
        BadConfig{"SetWithoutKey", "", {"traffic.=0.5"}, "--set", "section.key=value"},
        BadConfig{
            "SyntaxError", "[router]\nvcs = = 2\n", {}, "test.toml", "file 'test.toml' (line 2"}),
    [](const testing::TestParamInfo<BadConfig>& param) { return param.param.name; });

}  // namespace
}  // namespace angara
