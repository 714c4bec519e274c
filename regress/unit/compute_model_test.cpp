// The node compute model (workloads/params/compute_model.h): flat is the applications' formula of
// before, the roofline's two bounds and its cache step, one region cost per region, the table's
// interpolation and every error of a table file.

#include "workloads/params/compute_model.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "models/core/config_error.h"
#include "regress/support/temp_file.h"
#include "workloads/apps/app_programs.h"
#include "workloads/params/compute_table.h"

namespace angara {
namespace {

// A roofline with round numbers: 100 GFlop/s, memory 10 GB/s, cache 100 GB/s of 1 MiB.
ComputeParams round_roofline(double overhead_ns = 0) {
  ComputeParams p;
  p.model = ComputeModelKind::Roofline;
  p.memory_gbps = 10;
  p.cache_gbps = 100;
  p.cache_mib = 1;
  p.region_overhead_ns = overhead_ns;
  return p;
}

constexpr double kMib = 1024.0 * 1024.0;

TEST(ComputeModel, KernelsCountTheirFlopsAndBytes) {
  const Kernel spmv = spmv_kernel(10);
  EXPECT_DOUBLE_EQ(spmv.flops, 20);
  EXPECT_DOUBLE_EQ(spmv.bytes, 10 * 12 + 4 + 8 + 8);  // values, indices, row pointer, y, x
  const Kernel heat = heat_kernel(25);
  EXPECT_DOUBLE_EQ(heat.flops, 25);
  EXPECT_DOUBLE_EQ(heat.bytes, 16);  // u loaded, the new u stored
}

// Bit for bit the formulas the applications used before the model: flops / rate.
TEST(ComputeModel, FlatIsTheApplicationsFormulaOfBefore) {
  const double spmv_gflops = 591 / 1000.0;
  for (std::uint64_t rows : {20480000ull / 16, 20480000ull / 4096, 102400ull / 16}) {
    const double before = 2.0 * 10 * static_cast<double>(rows) / spmv_gflops;
    const auto block = static_cast<double>(rows);
    EXPECT_EQ(ComputeModel::flat(spmv_gflops).ns(spmv_kernel(10), block, block), before) << rows;
  }
  const std::int64_t interior = 398 * 798, cells = 400 * 800;
  const double heat_before = static_cast<double>(interior) * 25 / 11.0;
  EXPECT_EQ(ComputeModel::flat(11).ns(heat_kernel(25), static_cast<double>(interior),
                                      static_cast<double>(cells)),
            heat_before);
  // Flat ignores the working set and has no region cost.
  EXPECT_EQ(ComputeModel::flat(11).ns(heat_kernel(25), 0, 1e9), 0.0);
}

TEST(ComputeModel, RooflineIsMemoryBoundBelowTheRidgeAndComputeBoundAbove) {
  const ComputeModel m = ComputeModel::roofline(round_roofline(), 100);
  const double block = 1e6;  // 1e6 x 8 bytes > 1 MiB: from memory, ridge at 10 flops per byte
  // 1 flop per 8 bytes: memory-bound, 8 bytes / 10 GB/s per unit.
  EXPECT_DOUBLE_EQ(m.ns({1, 8}, block, block), block * 8 / 10);
  // 1000 flops per 8 bytes: compute-bound, 1000 flops / 100 GFlop/s per unit.
  EXPECT_DOUBLE_EQ(m.ns({1000, 8}, block, block), block * 1000 / 100);
  // At the ridge both bounds meet; just past it the flops decide.
  EXPECT_DOUBLE_EQ(m.ns({80, 8}, block, block), block * 0.8);
  EXPECT_GT(m.ns({81, 8}, block, block), m.ns({80, 8}, block, block));
  EXPECT_DOUBLE_EQ(m.ns({79, 8}, block, block), block * 0.8);  // still memory
}

TEST(ComputeModel, RooflineReadsFromCacheWhileTheBlockFitsInIt) {
  const ComputeModel m = ComputeModel::roofline(round_roofline(), 100);
  const Kernel k{1, 8};
  const double fits = kMib / 8;  // exactly 1 MiB of working set
  EXPECT_DOUBLE_EQ(m.ns(k, fits, fits), fits * 8 / 100);
  EXPECT_DOUBLE_EQ(m.ns(k, fits + 1, fits + 1), (fits + 1) * 8 / 10);
  // The whole block decides, not the part computed: a small part of a large block is from memory.
  EXPECT_DOUBLE_EQ(m.ns(k, 100, fits + 1), 100.0 * 8 / 10);
  EXPECT_DOUBLE_EQ(m.ns(k, 100, fits), 100.0 * 8 / 100);
  // No cache: always memory.
  ComputeParams none = round_roofline();
  none.cache_mib = 0;
  EXPECT_DOUBLE_EQ(ComputeModel::roofline(none, 100).ns(k, 1, 1), 8.0 / 10);
}

TEST(ComputeModel, RegionOverheadIsAddedOncePerRegion) {
  const ComputeModel without = ComputeModel::roofline(round_roofline(0), 100);
  const ComputeModel with = ComputeModel::roofline(round_roofline(1500), 100);
  const Kernel k{25, 16};
  for (double part : {0.0, 1.0, 1e3, 1e7}) {
    EXPECT_DOUBLE_EQ(with.ns(k, part, 1e7) - without.ns(k, part, 1e7), 1500) << part;
  }
  // Heat's two regions (interior, boundary) pay it twice; one region of both pays it once.
  const double two = with.ns(k, 9e6, 1e7) + with.ns(k, 1e6, 1e7);
  const double one = with.ns(k, 1e7, 1e7);
  EXPECT_NEAR(two - one, 1500, 1e-6 * one);
}

TEST(ComputeModel, TableInterpolatesLinearlyAndSharesABlockByItsParts) {
  const ComputeModel m = ComputeModel::table({{1000, 1e6}, {3000, 2e6}, {7000, 10e6}}, "times.csv");
  const Kernel k{123, 456};  // ignored: the table times blocks
  EXPECT_DOUBLE_EQ(m.ns(k, 1000, 1000), 1e6);
  EXPECT_DOUBLE_EQ(m.ns(k, 3000, 3000), 2e6);
  EXPECT_DOUBLE_EQ(m.ns(k, 7000, 7000), 10e6);
  EXPECT_DOUBLE_EQ(m.ns(k, 2000, 2000), 1.5e6);
  EXPECT_DOUBLE_EQ(m.ns(k, 6000, 6000), 8e6);
  EXPECT_DOUBLE_EQ(m.ns(k, 500, 2000), 1.5e6 / 4);
  EXPECT_DOUBLE_EQ(m.ns(k, 0, 2000), 0);
  EXPECT_NO_THROW(m.check_block(1000));
  EXPECT_NO_THROW(m.check_block(7000));
}

void expect_config_error(const std::function<void()>& body, const std::string& rule) {
  try {
    body();
    FAIL() << "no ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key(), "compute.table");
    EXPECT_NE(std::string(error.what()).find(rule), std::string::npos) << error.what();
  }
}

TEST(ComputeModel, TableRefusesBlocksOutsideItsSizes) {
  const ComputeModel m = ComputeModel::table({{1000, 1e6}, {3000, 2e6}}, "times.csv");
  for (double block : {999.0, 3001.0, 1.0}) {
    expect_config_error([&] { m.check_block(block); },
                        "lies outside the table's sizes 1000 .. 3000; add rows that cover it");
    expect_config_error([&] { m.ns({1, 1}, block, block); }, "outside the table's sizes");
  }
  expect_config_error([&] { m.check_block(5000); }, "\"times.csv\"");
  // The other models take any block.
  EXPECT_NO_THROW(ComputeModel::flat(1).check_block(1e12));
}

TEST(ComputeTable, ReadsRowsHeaderCommentsAndBlankLines) {
  const auto points =
      parse_compute_table("work_size,time_ns\r\n# measured\n\n 1000 , 5e5\n2500,1.25e6\n", "t.csv");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_DOUBLE_EQ(points[0].work, 1000);
  EXPECT_DOUBLE_EQ(points[0].ns, 5e5);
  EXPECT_DOUBLE_EQ(points[1].work, 2500);
  EXPECT_DOUBLE_EQ(points[1].ns, 1.25e6);
}

struct BadTable {
  const char* name;
  std::string text;
  std::string rule;
};

void PrintTo(const BadTable& bad, std::ostream* os) {  // NOLINT: GoogleTest's name
  *os << bad.name;
}

class BadTableTest : public testing::TestWithParam<BadTable> {};

TEST_P(BadTableTest, ThrowsConfigErrorNamingFileLineAndRule) {
  expect_config_error([&] { parse_compute_table(GetParam().text, "t.csv"); }, GetParam().rule);
}

INSTANTIATE_TEST_SUITE_P(
    ComputeTable, BadTableTest,
    testing::Values(
        BadTable{"NoComma", "1000 5000\n2000,6000\n",
                 "\"t.csv\" line 1: \"1000 5000\": each row is work_size,time_ns"},
        BadTable{"ThreeFields", "1000,5000\n2000,6000,7\n", "line 2: \"2000,6000,7\""},
        BadTable{"NotANumber", "1000,5000\n2000,fast\n", "two numbers"},
        BadTable{"HeaderNotFirst", "1000,5000\nwork_size,time_ns\n", "line 2"},
        BadTable{"ZeroWork", "0,5000\n2000,6000\n", "a positive work size"},
        BadTable{"NegativeTime", "1000,-1\n2000,6000\n", "a time of at least 0 ns"},
        BadTable{"SizeRepeated", "1000,5000\n1000,6000\n",
                 "line 2: \"1000,6000\": work sizes must increase from row to row (the row before "
                 "has 1000)"},
        BadTable{"SizeFalls", "1000,5000\n2000,6000\n1500,5500\n", "line 3"},
        BadTable{"OneRow", "1000,5000\n", "1 row(s): a table needs at least two"},
        BadTable{"Empty", "work_size,time_ns\n# nothing\n", "0 row(s)"}),
    [](const testing::TestParamInfo<BadTable>& param) { return param.param.name; });

TEST(ComputeTable, MissingOrUnnamedFileIsAConfigError) {
  expect_config_error([] { load_compute_table("/nonexistent/times.csv"); },
                      "\"/nonexistent/times.csv\": no such file");
  expect_config_error([] { load_compute_table(""); }, "needs a CSV file of work_size,time_ns");
}

TEST(ComputeModel, MakeBuildsTheModelTheParamsName) {
  ComputeParams p;
  EXPECT_EQ(make_compute_model(p, 140.8, 11).kind(), ComputeModelKind::Flat);
  EXPECT_DOUBLE_EQ(make_compute_model(p, 140.8, 11).ns({11, 1}, 1, 1), 1);
  p.model = ComputeModelKind::Roofline;
  EXPECT_EQ(make_compute_model(p, 140.8, 11).kind(), ComputeModelKind::Roofline);
  const test::TempFile file("10,100\n20,300\n");
  p.model = ComputeModelKind::Table;
  p.table = file.path();
  const ComputeModel table = make_compute_model(p, 140.8, 11);
  EXPECT_EQ(table.kind(), ComputeModelKind::Table);
  EXPECT_DOUBLE_EQ(table.ns({}, 15, 15), 200);
  EXPECT_NO_THROW(p.validate());
}

}  // namespace
}  // namespace angara
