// Sweep files into points: product order, ranges, zipped groups, names, base and inline settings
// under the axis values, and one ConfigError naming the key and the rule for each bad file.

#include "platform/sweep/sweep_plan.h"
#include "platform/sweep/sweep_runner.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "models/core/config_error.h"
#include "platform/config/toml_text.h"

namespace angara {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test under the system temp dir, removed afterwards.
class SweepPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("sweep_plan_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // Writes `text` to `name` (relative to the test dir, parents created) and returns its path.
  fs::path write(const std::string& name, const std::string& text) const {
    fs::path path = m_dir / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
  }

  SweepPlan load(const std::string& text) const { return load_sweep(write("sweep.toml", text)); }

  // Loads `text`, expecting a ConfigError whose key and message name `key`, and whose message
  // contains `rule`.
  void expect_error(const std::string& text, const std::string& key,
                    const std::string& rule) const {
    try {
      load(text);
      ADD_FAILURE() << "no ConfigError for:\n" << text;
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      EXPECT_NE(e.key().find(key), std::string::npos) << "key '" << e.key() << "', " << what;
      EXPECT_NE(what.find(key), std::string::npos) << what;
      EXPECT_NE(what.find(rule), std::string::npos) << what;
    }
  }

  fs::path m_dir;
};

std::string without_spaces(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  return text;
}

TEST_F(SweepPlanTest, ProductHasEveryCombinationWithTheFirstAxisSlowest) {
  const auto plan = load(R"(
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2]
[[axis]]
key = "topology.dims"
values = [[4, 4], [8, 8], [4, 4, 4]]
[[axis]]
key = "router.deadlock"
values = ["bubble", "dateline"]
)");
  ASSERT_EQ(plan.axes.size(), 3u);
  ASSERT_EQ(plan.points.size(), 2u * 3u * 2u);
  const double rates[] = {0.1, 0.2};
  const std::vector<int> dims[] = {{4, 4}, {8, 8}, {4, 4, 4}};
  const DeadlockScheme schemes[] = {DeadlockScheme::Bubble, DeadlockScheme::Dateline};
  const char* dims_texts[] = {"[4,4]", "[8,8]", "[4,4,4]"};
  const char* scheme_texts[] = {"\"bubble\"", "\"dateline\""};
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const auto& p = plan.points[i];
    SCOPED_TRACE("point " + std::to_string(i));
    EXPECT_EQ(p.index, static_cast<int>(i));
    const std::size_t r = i / 6, d = (i / 2) % 3, s = i % 2;
    ASSERT_EQ(p.settings.size(), 3u);
    EXPECT_EQ(p.settings[0].first, "traffic.rate");
    EXPECT_EQ(p.settings[1].first, "topology.dims");
    EXPECT_EQ(p.settings[2].first, "router.deadlock");
    EXPECT_EQ(p.settings[0].second, r == 0 ? "0.1" : "0.2");
    EXPECT_EQ(without_spaces(p.settings[1].second), dims_texts[d]);
    EXPECT_EQ(p.settings[2].second, scheme_texts[s]);
    EXPECT_DOUBLE_EQ(p.config.traffic.rate, rates[r]);
    EXPECT_EQ(p.config.topology.dims, dims[d]);
    EXPECT_EQ(p.config.router.deadlock, schemes[s]);
  }
}

TEST_F(SweepPlanTest, FloatRangeIncludesStopWithoutRoundingNoise) {
  const auto plan = load(R"(
[[axis]]
key = "traffic.rate"
range = [0.05, 0.45, 0.05]
)");
  ASSERT_EQ(plan.points.size(), 9u);
  const std::vector<std::string> expected = {"0.05", "0.1",  "0.15", "0.2", "0.25",
                                             "0.3",  "0.35", "0.4",  "0.45"};
  EXPECT_EQ(plan.axes[0].values, expected);
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    EXPECT_NEAR(plan.points[i].config.traffic.rate, 0.05 + 0.05 * static_cast<double>(i), 1e-12);
  }
  EXPECT_NEAR(plan.points.back().config.traffic.rate, 0.45, 1e-12);
}

TEST_F(SweepPlanTest, FloatRangeStopsAtTheLastStepNotPastIt) {
  const auto plan = load(R"(
[[axis]]
key = "traffic.rate"
range = [0.1, 0.35, 0.1]
)");
  ASSERT_EQ(plan.points.size(), 3u);
  EXPECT_NEAR(plan.points.back().config.traffic.rate, 0.3, 1e-12);
}

TEST_F(SweepPlanTest, FloatRangeUpToOneStaysAValidRate) {
  const auto plan = load(R"(
[[axis]]
key = "traffic.rate"
range = [0.5, 1.0, 0.25]
)");
  ASSERT_EQ(plan.points.size(), 3u);
  EXPECT_DOUBLE_EQ(plan.points[1].config.traffic.rate, 0.75);
  EXPECT_DOUBLE_EQ(plan.points[2].config.traffic.rate, 1.0);
}

TEST_F(SweepPlanTest, IntegerRangeIncludesStopAndStaysInteger) {
  const auto plan = load(R"(
[[axis]]
key = "sim.seed"
range = [1, 10, 3]
[[axis]]
key = "router.vcs"
range = [1, 8, 3]
)");
  EXPECT_EQ(plan.axes[0].values, (std::vector<std::string>{"1", "4", "7", "10"}));
  EXPECT_EQ(plan.axes[1].values, (std::vector<std::string>{"1", "4", "7"}));
  ASSERT_EQ(plan.points.size(), 12u);
  EXPECT_EQ(plan.points.front().config.sim.seed, 1u);
  EXPECT_EQ(plan.points.back().config.sim.seed, 10u);  // sim.seed takes integers only
  EXPECT_EQ(plan.points.back().config.router.vcs, 7);
}

TEST_F(SweepPlanTest, AxesOfOneGroupWalkTogetherAndMultiplyWithOthers) {
  // The grouped axes are not adjacent: the group is one dimension at its first axis' place.
  const auto plan = load(R"(
[[axis]]
key = "router.deadlock"
values = ["bubble", "dateline"]
group = "scheme"
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2, 0.3]
[[axis]]
key = "router.vcs"
values = [1, 4]
group = "scheme"
)");
  ASSERT_EQ(plan.points.size(), 6u);
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const auto& p = plan.points[i];
    SCOPED_TRACE("point " + std::to_string(i));
    const bool dateline = i >= 3;  // the group is the first dimension: it varies slowest
    EXPECT_EQ(p.config.router.deadlock,
              dateline ? DeadlockScheme::Dateline : DeadlockScheme::Bubble);
    EXPECT_EQ(p.config.router.vcs, dateline ? 4 : 1);
    EXPECT_NEAR(p.config.traffic.rate, 0.1 * static_cast<double>(i % 3 + 1), 1e-12);
    ASSERT_EQ(p.settings.size(), 3u);  // axis order, not dimension order
    EXPECT_EQ(p.settings[0].first, "router.deadlock");
    EXPECT_EQ(p.settings[1].first, "traffic.rate");
    EXPECT_EQ(p.settings[2].first, "router.vcs");
    EXPECT_EQ(p.settings[2].second, dateline ? "4" : "1");
  }
}

TEST_F(SweepPlanTest, UntilSaturatedLinksEachPointToThePreviousOneOnItsLine) {
  // The load axis is in the middle: each point waits on the point one rate lower, same scheme
  // and VC count; the first rate of every line waits on nothing.
  const auto plan = load(R"(
[[axis]]
key = "router.deadlock"
values = ["bubble", "dateline"]
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2, 0.3]
until_saturated = true
[[axis]]
key = "router.vcs"
values = [2, 4]
)");
  ASSERT_EQ(plan.points.size(), 12u);
  for (const auto& p : plan.points) {
    SCOPED_TRACE("point " + std::to_string(p.index));
    const int rate = (p.index / 2) % 3;
    if (rate == 0) {
      EXPECT_EQ(p.after, -1);
      continue;
    }
    ASSERT_GE(p.after, 0);
    const auto& before = plan.points[p.after];
    EXPECT_EQ(before.config.router.deadlock, p.config.router.deadlock);
    EXPECT_EQ(before.config.router.vcs, p.config.router.vcs);
    EXPECT_NEAR(p.config.traffic.rate - before.config.traffic.rate, 0.1, 1e-12);
  }
  // Without the flag no point waits on another.
  for (const auto& p : load("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.2]\n").points)
    EXPECT_EQ(p.after, -1);
}

TEST_F(SweepPlanTest, UntilSaturatedOnTwoAxesOrNotABoolean) {
  expect_error(R"(
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2]
until_saturated = true
[[axis]]
key = "router.vcs"
values = [2, 4]
until_saturated = true
)",
               "until_saturated", "only one axis");
  expect_error(R"(
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2]
until_saturated = "yes"
)",
               "until_saturated", "expected true or false");
}

TEST_F(SweepPlanTest, NameTemplateRendersArraysStringsNumbersAndIndex) {
  const auto plan = load(R"(
[sweep]
name = "{topology.dims}_{router.deadlock}_r{traffic.rate}_{index}"
[[axis]]
key = "topology.dims"
values = [[8, 8], [4, 4, 4]]
[[axis]]
key = "router.deadlock"
values = ["bubble", 'dateline']
[[axis]]
key = "traffic.rate"
range = [0.05, 0.15, 0.05]
)");
  ASSERT_EQ(plan.points.size(), 12u);
  EXPECT_EQ(plan.points[0].name, "8x8_bubble_r0.05_0");
  EXPECT_EQ(plan.points[2].name, "8x8_bubble_r0.15_2");
  EXPECT_EQ(plan.points[4].name, "8x8_dateline_r0.1_4");
  EXPECT_EQ(plan.points[11].name, "4x4x4_dateline_r0.15_11");
}

TEST_F(SweepPlanTest, DefaultNamesAreZeroPaddedIndicesSortingInPlanOrder) {
  const auto plan = load(R"(
[[axis]]
key = "sim.seed"
range = [1, 12, 1]
)");
  ASSERT_EQ(plan.points.size(), 12u);
  EXPECT_EQ(plan.points[0].name, "point_00");
  EXPECT_EQ(plan.points[7].name, "point_07");
  EXPECT_EQ(plan.points[11].name, "point_11");
  for (std::size_t i = 1; i < plan.points.size(); ++i) {
    EXPECT_LT(plan.points[i - 1].name, plan.points[i].name);
  }
}

TEST_F(SweepPlanTest, BaseInlineSettingsAndAxisValuesApplyInThatOrder) {
  // The base is found relative to the sweep file, which sits in another directory.
  write("configs/base.toml", R"(
[topology]
dims = [6, 6]
[router]
buffer_flits = 40
[sim]
measure_cycles = 777
seed = 9
)");
  const auto plan = load_sweep(write("sweeps/s.toml", R"(
[sweep]
base = "../configs/base.toml"
[config.router]
buffer_flits = 48
deadlock = "dateline"
[config.sim]
measure_cycles = 555
[[axis]]
key = "router.buffer_flits"
values = [36, 50]
)"));
  ASSERT_EQ(plan.points.size(), 2u);
  for (const auto& p : plan.points) {
    EXPECT_EQ(p.config.topology.dims, (std::vector<int>{6, 6}));    // base only
    EXPECT_EQ(p.config.sim.seed, 9u);                               // base only
    EXPECT_EQ(p.config.sim.measure_cycles, 555u);                   // inline over base
    EXPECT_EQ(p.config.router.deadlock, DeadlockScheme::Dateline);  // inline string
    EXPECT_EQ(p.config.traffic.packet_flits, 16);                   // nowhere: the default
  }
  EXPECT_EQ(plan.points[0].config.router.buffer_flits, 36);  // axis over inline over base
  EXPECT_EQ(plan.points[1].config.router.buffer_flits, 50);
}

TEST_F(SweepPlanTest, WithoutBaseTheBuiltInDefaultsApply) {
  const auto plan = load(R"(
[[axis]]
key = "traffic.rate"
values = [0.5]
)");
  ASSERT_EQ(plan.points.size(), 1u);
  const Config defaults;
  EXPECT_EQ(plan.points[0].config.topology.dims, defaults.topology.dims);
  EXPECT_EQ(plan.points[0].config.sim.measure_cycles, defaults.sim.measure_cycles);
  EXPECT_DOUBLE_EQ(plan.points[0].config.traffic.rate, 0.5);
}

TEST_F(SweepPlanTest, UnknownConfigKeyInAnAxis) {
  expect_error("[[axis]]\nkey = \"router.bufer_flits\"\nvalues = [8]\n", "router.bufer_flits",
               "unknown key");
}

TEST_F(SweepPlanTest, BadValueInAnAxis) {
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.5, 2.0]\n", "traffic.rate",
               "must be between 0 and 1");
}

TEST_F(SweepPlanTest, AxisKeyWithoutSection) {
  expect_error("[[axis]]\nkey = \"rate\"\nvalues = [0.1]\n", "axis[0].key", "section.name");
}

TEST_F(SweepPlanTest, EmptyAxis) {
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalues = []\n", "traffic.rate",
               "at least one value");
}

TEST_F(SweepPlanTest, SameKeyInTwoAxes) {
  expect_error(
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n"
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.2]\n",
      "traffic.rate", "swept by two axes");
}

TEST_F(SweepPlanTest, SameKeyInTwoAxesSpelledWithSpacesOrQuotes) {
  for (const char* other : {"\" traffic . rate \"", "'traffic.\"rate\"'",
                            "\"\\\"traffic\\\".rate\"", "\"traffic.'rate'\""}) {
    expect_error(std::string("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n[[axis]]\nkey = ") +
                     other + "\nvalues = [0.2]\n",
                 "traffic.rate", "axis[0] and axis[1]");
  }
}

TEST_F(SweepPlanTest, AxisKeyIsReadAsTheConfigReadsIt) {
  const auto plan = load(
      "[sweep]\nname = \"r{traffic.rate}\"\n"
      "[[axis]]\nkey = \" traffic . 'rate' \"\nvalues = [0.25]\n");
  ASSERT_EQ(plan.axes.size(), 1u);
  EXPECT_EQ(plan.axes[0].key, "traffic.rate");
  EXPECT_EQ(plan.points[0].name, "r0.25");
  EXPECT_DOUBLE_EQ(plan.points[0].config.traffic.rate, 0.25);
}

TEST_F(SweepPlanTest, ZippedGroupOfDifferentLengths) {
  expect_error(
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.2]\ngroup = \"g\"\n"
      "[[axis]]\nkey = \"sim.seed\"\nvalues = [1, 2, 3]\ngroup = \"g\"\n",
      "sim.seed", "same number of values");
}

TEST_F(SweepPlanTest, NameTemplateGivingTwoPointsOneName) {
  expect_error(
      "[sweep]\nname = \"r{traffic.rate}\"\n"
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.2]\n"
      "[[axis]]\nkey = \"sim.seed\"\nvalues = [1, 2]\n",
      "sweep.name", "gives two points the name 'r0.1'");
}

TEST_F(SweepPlanTest, NameTemplateWithAKeyThatIsNoAxis) {
  expect_error(
      "[sweep]\nname = \"{traffic.rat}\"\n"
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
      "sweep.name", "{traffic.rat} is not an axis key");
}

TEST_F(SweepPlanTest, NameTemplateGivingAPathOutsideThePointsDirectory) {
  expect_error(
      "[sweep]\nname = \"../r{index}\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
      "sweep.name", "not a plain directory name");
  expect_error("[sweep]\nname = \"r/{index}\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
               "sweep.name", "not a plain directory name");
  expect_error("[sweep]\nname = \"..\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
               "sweep.name", "not a plain directory name");
}

TEST_F(SweepPlanTest, FieldsOfTheWrongTypeAreErrorsNotIgnored) {
  // group = 1 ignored would silently turn a zipped pair into a product.
  expect_error(
      "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.2]\ngroup = 1\n"
      "[[axis]]\nkey = \"sim.seed\"\nvalues = [1, 2]\ngroup = 1\n",
      "axis[0].group", "expected a string");
  expect_error("[[axis]]\nkey = 5\nvalues = [0.1]\n", "axis[0].key", "expected a string");
  expect_error("[[axis]]\nvalues = [0.1]\n", "axis[0].key", "every axis names a config key");
  expect_error("[sweep]\nname = 5\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.2]\n",
               "sweep.name", "expected a string");
  expect_error("[sweep]\nbase = 5\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
               "sweep.base", "expected a string");
}

TEST_F(SweepPlanTest, UnknownFieldInAnAxis) {
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalue = [0.1]\n", "axis[0].value",
               "unknown axis field");
}

TEST_F(SweepPlanTest, AxisWithBothValuesAndRange) {
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\nrange = [0.1, 0.2, 0.1]\n",
               "traffic.rate", "either values");
}

TEST_F(SweepPlanTest, MalformedRange) {
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nrange = [0.1, 0.2]\n", "traffic.rate.range",
               "[start, stop, step]");
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nrange = [0.1, 0.2, 0.0]\n", "traffic.rate.range",
               "step > 0");
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nrange = [0.3, 0.2, 0.1]\n", "traffic.rate.range",
               "stop >= start");
}

TEST_F(SweepPlanTest, UnknownSweepKey) {
  expect_error("[sweep]\nbsae = \"x.toml\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
               "sweep.bsae", "unknown key");
}

TEST_F(SweepPlanTest, UnknownTopLevelSection) {
  expect_error("[axes]\nkey = \"traffic.rate\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
               "axes", "unknown sweep section");
}

TEST_F(SweepPlanTest, NoAxes) {
  expect_error("[config.sim]\nmeasure_cycles = 100\n", "axis", "at least one [[axis]]");
}

TEST_F(SweepPlanTest, MissingBaseFile) {
  expect_error(
      "[sweep]\nbase = \"no_such_base.toml\"\n[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n",
      "no_such_base.toml", "no such base config file (sweep.base)");
}

TEST_F(SweepPlanTest, TomlSyntaxError) {
  // The file is named, with the line of the error (line 3: the unclosed array).
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1,\n", "sweep.toml", "line 3");
}

TEST_F(SweepPlanTest, SweepFileLargerThanTheTomlBound) {
  // A comment past the bound that configs have too: refused before the parser takes its memory.
  expect_error("[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1]\n# " +
                   std::string(kMaxTomlBytes, 'x') + "\n",
               "sweep.toml",
               "(4194352 bytes): a sweep file is at most 4194304 bytes (4 MiB): its parsed form "
               "takes hundreds of times its size in memory");
}

TEST_F(SweepPlanTest, MissingSweepFile) {
  try {
    load_sweep(m_dir / "absent.toml");
    ADD_FAILURE() << "no ConfigError for a missing sweep file";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("absent.toml"), std::string::npos) << e.what();
  }
}

// The sweep's bar counts a running point by its last progress line.
TEST(SweepRunner, ShareDoneIsTheLastProgressLinesPercentage) {
  EXPECT_EQ(share_done(""), 0.0);
  EXPECT_EQ(share_done("8x8x8 torus AT, uniform ...\n"), 0.0);
  const std::string log =
      "angara-sim: [0:02] measure cycle 3000 of 12000 (25%), 500 cycles/s, ETA 0:18: 40 delivered\n"
      "angara-sim: [0:04] programs iteration 6 of 10 (60%), cycle 7187000, ETA 0:03: 2174461\n";
  EXPECT_DOUBLE_EQ(share_done(log), 0.6);
  EXPECT_EQ(share_done("a line without a percentage (%)\n"), 0.0);
}

}  // namespace
}  // namespace angara
