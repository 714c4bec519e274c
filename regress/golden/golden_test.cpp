// Golden waveforms: each scenario in scenarios/ runs in AT with tracing on, and its VCD must equal
// the approved one in expected/, signal by signal. On a mismatch the message names the first
// differing signal, the time and both values. Regenerate on purpose with
//   ANGARA_UPDATE_GOLDEN=1 ctest --test-dir build -L golden
// and review the diff of regress/golden/expected/ before committing it.
// Built again as golden_rtl_test (ANGARA_RTL_REDUCER_IN, label rtl): the same scenarios with the
// RTL Reducer in must give the same approved waveforms (docs/RTL.md); and as golden_vcup_rtl_test
// (ANGARA_RTL_VCUP_IN) with the RTL VCUp beside every router.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "platform/config/config_loader.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/trace_files.h"
#include "platform/waveform/vcd.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
const fs::path kGolden = ANGARA_GOLDEN_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The scenario's waveform, run in a child process; `perturb` adds cycles to VCUp's and VCDown's
// analysis of a packet's head (collective.analysis_cycles).
std::string waveform(const std::string& scenario, int perturb = 0) {
  Config c = load_config_file(kGolden / "scenarios" / (scenario + ".toml"), {});
  c.collective.analysis_cycles += perturb;
#ifdef ANGARA_RTL_REDUCER_IN
  c.rtl.reducer = BlockImpl::Check;
#endif
#ifdef ANGARA_RTL_VCUP_IN
  c.rtl.vcup = BlockImpl::Check;
#endif
  c.sim.progress = false;
  const fs::path file = fs::temp_directory_path() /
                        fmt::format("angara-golden-{}-{}-{}.vcd", scenario, perturb, getpid());
  c.trace.file = file.string();
  const nlohmann::json checked = test::run_isolated([&] {
    const CollectiveResult r = run_collective_experiment(c);
    return nlohmann::json{{"handed_off", r.rtl.results}, {"vcup_packets", r.rtl_vcup.packets}};
  });
#ifdef ANGARA_RTL_REDUCER_IN
  if (c.workload.op != CollectiveOp::Broadcast) {
    EXPECT_GT(checked["handed_off"].get<std::uint64_t>(), 0U)
        << scenario << ": the RTL Reducer was not in";
  }
#endif
#ifdef ANGARA_RTL_VCUP_IN
  if (c.workload.op != CollectiveOp::Broadcast) {
    EXPECT_GT(checked["vcup_packets"].get<std::uint64_t>(), 0U)
        << scenario << ": no packet went through an RTL VCUp";
  }
#endif
  std::string text = read(file);
  for (const auto& output : trace_outputs(c)) fs::remove(output.second);
  return text;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, WaveformEqualsTheApprovedOne) {
  const std::string text = waveform(GetParam());
  const fs::path expected = kGolden / "expected" / (GetParam() + ".vcd");
#if !defined(ANGARA_RTL_REDUCER_IN) && !defined(ANGARA_RTL_VCUP_IN)
  if (std::getenv("ANGARA_UPDATE_GOLDEN")) {
    write_file(text, expected);
    GTEST_SKIP() << "wrote " << expected;
  }
#endif
  ASSERT_TRUE(fs::exists(expected)) << expected << " is missing: regenerate with "
                                    << "ANGARA_UPDATE_GOLDEN=1 ctest --test-dir build -L golden";
  const auto diff = compare_vcd(parse_vcd(read(expected)), parse_vcd(text));
  if (!diff) return;
  // Kept to look at: in the build tree, named after the scenario.
  const fs::path actual = fs::path(ANGARA_GOLDEN_ACTUAL_DIR) / (GetParam() + ".vcd");
  fs::create_directories(actual.parent_path());
  write_file(text, actual);
  ADD_FAILURE() << GetParam() << ": " << *diff << "\nthe waveform this build gives: " << actual
                << "\ncompare: angara-sim vcd-diff " << expected << ' ' << actual;
}

#ifdef ANGARA_GOLDEN_NIGHTLY
// Larger machines, for the nightly run (label nightly).
INSTANTIATE_TEST_SUITE_P(Nightly, Golden,
                         ::testing::Values("nightly_allreduce_8x8x8x2", "nightly_broadcast_8x8x8x2",
                                           "nightly_16_trees_4x4x4"));
#else
INSTANTIATE_TEST_SUITE_P(Scenarios, Golden,
                         ::testing::Values("broadcast_2x2x2_root", "broadcast_2x2x2_leaf",
                                           "allreduce_3x3x3", "credit_stall_4x4",
                                           "beside_p2p_4x4x4", "reduce_min_3flits_3x3",
                                           "allreduce_max_16_trees_1flit_4x4"));

// The comparison can fail: one more cycle in VCUp shows up as a readable difference.
TEST(GoldenCheck, OneExtraAnalysisCycleIsCaughtWithTheSignalTimeAndValues) {
  const auto expected = parse_vcd(read(kGolden / "expected" / "allreduce_3x3x3.vcd"));
  const auto diff = compare_vcd(expected, parse_vcd(waveform("allreduce_3x3x3", 1)));
  ASSERT_TRUE(diff) << "one more analysis cycle left every waveform unchanged";
  EXPECT_NE(diff->find("first differs at"), std::string::npos) << *diff;
  EXPECT_NE(diff->find("expected"), std::string::npos) << *diff;
  EXPECT_NE(diff->find(", got "), std::string::npos) << *diff;
  std::cout << "one more analysis cycle: " << *diff << '\n';
}
#endif

}  // namespace
}  // namespace angara
