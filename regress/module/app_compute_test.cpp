// SpMV and heat under the compute models ([compute], docs/NODE.md), in AT and LT: a node's
// compute is local, so its phases take the same cycles in both modes and equal the model's
// formula; the roofline moves them where it should (cache or memory, region costs), and the
// flat default stays the formula of before. Each simulation runs in a child process.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "platform/experiments/app_experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/app_config.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"
#include "regress/support/temp_file.h"
#include "workloads/apps/app_programs.h"

namespace angara {
namespace {

using test::in_mode;
using test::IsolatedError;
using test::run_isolated;

nlohmann::json run_app(const Config& c, SimMode mode) {
  return run_isolated(
      [&] { return nlohmann::json(to_json(run_app_experiment(in_mode(c, mode)))); });
}

// 16 nodes, 6400 rows each: 896 KB of working set, in the L3 cache.
Config spmv_config(ComputeModelKind model) {
  Config c =
      test::app_config({2, 2, 2, 2}, WorkloadKind::Spmv, SoftwareAlgorithm::RecursiveDoubling);
  c.app.rows = 102400;
  c.compute.model = model;
  return c;
}

// 16 nodes on a 4 x 4 process grid, blocks of 160 x 160 cells.
Config heat_config(ComputeModelKind model) {
  Config c = test::app_config({2, 2, 2, 2}, WorkloadKind::Heat, SoftwareAlgorithm::Tree);
  c.app.grid = {640, 640};
  c.compute.model = model;
  return c;
}

// Microseconds of `cycles`, as the results file writes them.
double us(Cycle cycles, const Config& c) {
  return static_cast<double>(cycles) * (c.router.cycle_ns() / 1000.0);
}

double spmv_expected_us(const Config& c, double flat_gflops) {
  const ComputeModel m = make_compute_model(c.compute, c.node.gflops, flat_gflops);
  const double rows = static_cast<double>(c.app.rows / 16);
  return us(
      cycles_for_ns(m.ns(spmv_kernel(c.app.nonzeros_per_row), rows, rows), c.router.clock_mhz), c);
}

// The interior (158 x 158 cells) and the boundary, each a region rounded to cycles on its own.
double heat_expected_us(const Config& c) {
  const ComputeModel m = make_compute_model(c.compute, c.node.gflops, c.app.heat_gflops);
  const Kernel k = heat_kernel(c.app.flops_per_cell);
  const double cells = 160.0 * 160, interior = 158.0 * 158;
  return us(cycles_for_ns(m.ns(k, interior, cells), c.router.clock_mhz) +
                cycles_for_ns(m.ns(k, cells - interior, cells), c.router.clock_mhz),
            c);
}

TEST(AppCompute, FlatDefaultIsTheAppRate) {
  const Config c = spmv_config(ComputeModelKind::Flat);
  const auto lt = run_app(c, SimMode::Lt);
  // 6400 rows x 20 flops at 591 MFlop/s = 216.58 us, rounded up to whole cycles.
  EXPECT_DOUBLE_EQ(lt["compute_us"].get<double>(), spmv_expected_us(c, 0.591));
  EXPECT_NEAR(lt["compute_us"].get<double>(), 6400 * 20 / 591.0, 0.004);
}

TEST(AppCompute, SpmvRooflineComputesAlikeInAtAndLtAndFasterThanFlat) {
  const Config roof = spmv_config(ComputeModelKind::Roofline);
  const auto at = run_app(roof, SimMode::At);
  const auto lt = run_app(roof, SimMode::Lt);
  const auto flat = run_app(spmv_config(ComputeModelKind::Flat), SimMode::Lt);
  EXPECT_EQ(at["compute_us"], lt["compute_us"]);
  // In cache: 6400 rows x 140 bytes at 154.4 GB/s = 5.80 us (the flops would take 0.91 us).
  EXPECT_DOUBLE_EQ(lt["compute_us"].get<double>(), spmv_expected_us(roof, 0.591));
  EXPECT_NEAR(lt["compute_us"].get<double>(), 6400 * 140 / 154.4 / 1000, 0.004);
  EXPECT_LT(lt["compute_us"].get<double>(), flat["compute_us"].get<double>() / 30);
  EXPECT_LT(lt["iteration_us"].get<double>(), flat["iteration_us"].get<double>());
  // The allgather is the network's: the same with either compute model in LT.
  EXPECT_NEAR(lt["collective_us"].get<double>(), flat["collective_us"].get<double>(),
              0.05 * flat["collective_us"].get<double>());
}

TEST(AppCompute, SpmvBlockLargerThanTheCacheIsReadFromMemory) {
  Config small_cache = spmv_config(ComputeModelKind::Roofline);
  small_cache.compute.cache_mib = 0.5;  // 896 KB no longer fits
  const auto lt = run_app(small_cache, SimMode::Lt);
  const auto at = run_app(small_cache, SimMode::At);
  EXPECT_EQ(at["compute_us"], lt["compute_us"]);
  EXPECT_NEAR(lt["compute_us"].get<double>(), 6400 * 140 / 30.6 / 1000, 0.004);
  EXPECT_DOUBLE_EQ(lt["compute_us"].get<double>(), spmv_expected_us(small_cache, 0.591));
}

TEST(AppCompute, HeatRooflinePaysTheRegionCostOnceForEachOfItsTwoRegions) {
  Config roof = heat_config(ComputeModelKind::Roofline);
  roof.compute.region_overhead_ns = 1000;
  const auto at = run_app(roof, SimMode::At);
  const auto lt = run_app(roof, SimMode::Lt);
  EXPECT_EQ(at["compute_us"], lt["compute_us"]);
  EXPECT_DOUBLE_EQ(lt["compute_us"].get<double>(), heat_expected_us(roof));
  Config free = roof;
  free.compute.region_overhead_ns = 0;
  const auto lt_free = run_app(free, SimMode::Lt);
  // Two regions of 1 us each; each phase rounds up to whole 2 ns cycles on its own.
  EXPECT_NEAR(lt["compute_us"].get<double>() - lt_free["compute_us"].get<double>(), 2.0, 0.004);
  const auto flat = run_app(heat_config(ComputeModelKind::Flat), SimMode::Lt);
  EXPECT_DOUBLE_EQ(flat["compute_us"].get<double>(),
                   heat_expected_us(heat_config(ComputeModelKind::Flat)));
  EXPECT_NE(lt["compute_us"], flat["compute_us"]);
}

TEST(AppCompute, SpmvTakesItsTimeFromATable) {
  const test::TempFile table("work_size,time_ns\n3200,10000\n12800,70000\n");
  Config c = spmv_config(ComputeModelKind::Table);
  c.compute.table = table.path();
  const auto at = run_app(c, SimMode::At);
  const auto lt = run_app(c, SimMode::Lt);
  EXPECT_EQ(at["compute_us"], lt["compute_us"]);
  // 6400 rows: a third of the way from 3200 to 12800, 10 us + (70 - 10) / 3 us = 30 us.
  EXPECT_NEAR(lt["compute_us"].get<double>(), 30.0, 1e-9);
}

TEST(AppCompute, TableThatMissesTheBlocksFailsBeforeTheRun) {
  const test::TempFile table("10000,30000\n20000,60000\n");
  Config c = spmv_config(ComputeModelKind::Table);
  c.compute.table = table.path();
  try {
    run_app(c, SimMode::Lt);
    FAIL() << "no error";
  } catch (const IsolatedError& error) {
    EXPECT_EQ(error.type(), "ConfigError");
    EXPECT_NE(std::string(error.what()).find("'compute.table'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("block of 6400 work units lies outside"),
              std::string::npos)
        << error.what();
  }
}

// Heat's halos hold the bytes sent (never zero: a halo of zeros, or of freed memory, fails the
// run) when faces differ in size and are longer than a message and than the endpoint's send
// buffer (blocks of 4000 x 2500 cells: 20000- and 32000-byte faces), so that sends suspend
// halfway and resume reading their block: every program sends from one block made before any
// starts and never resized (a block grown on demand by the longest face asked so far could move
// under a suspended send).
TEST(Heat, HalosHoldTheBytesSentWhenFacesDifferInSize) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    Config c = test::app_config({3, 3}, WorkloadKind::Heat, SoftwareAlgorithm::Tree);
    c.app.grid = {12000, 7500};
    const auto r = run_app(c, mode);
    EXPECT_EQ(r["process_grid"], nlohmann::json({3, 3}));
    EXPECT_EQ(r["iterations"], 2);
    EXPECT_GT(r["messages_delivered"].get<int>(), 0);
  }
}

// The send block is made once: a span from it stays where it was, and a send longer than the
// block is an error, not a reallocation.
TEST(Heat, SendBlockNeverMoves) {
  const SendBlock block(1000);
  const auto a = block.first(10);
  const auto b = block.first(1000);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_THROW(block.first(1001), std::logic_error);
  for (std::size_t i = 0; i < b.size(); ++i) ASSERT_NE(b[i], std::byte{0}) << i;
  EXPECT_EQ(HeatGrid({12000, 7500}, 9).largest_face_bytes(9), 4000u * 8);
}

}  // namespace
}  // namespace angara
