// The loader fuzzer's pieces, each shown to catch what it is there for: mutants made again from
// their numbers alone and reaching every outcome, the loaders' answers judged, angara-sim's exit
// statuses sorted into documented and not, and a crash or hang reported with its mutant.

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "platform/config/config_loader.h"
#include "regress/fuzz/command_mutator.h"
#include "regress/fuzz/config_mutator.h"
#include "regress/fuzz/crash_report.h"
#include "regress/fuzz/loader_verdict.h"
#include "regress/fuzz/sim_probe.h"
#include "regress/fuzz/tool_run.h"

namespace angara::fuzz {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A torus with a tree given row by row, and a fat tree: seeds for every loader path.
const std::string kTreeSeed = read_file(ANGARA_CONFIGS_DIR "/collective_own_tree.toml");
const std::string kFatTreeSeed = "[topology]\nkind = \"fat_tree\"\nk = 2\nlevels = 3\n";

ConfigMutator mutator() {
  return ConfigMutator({{"tree", kTreeSeed}, {"fat_tree", kFatTreeSeed}}, config_to_toml(Config{}));
}

TEST(CommandMutator, AMutantIsAFunctionOfSeedAndIndexAloneAndChangesItsSeed) {
  const CommandMutator commands(
      {{"sim", {"run", "config.toml", "--set", "a.b=1", "--out", "r.json"}},
       {"sweep", {"plan", "sweep.toml"}}});
  std::set<std::string> seen;
  for (std::uint64_t i = 0; i < 200; ++i) {
    const CommandMutant a = commands.make(7, i);
    const CommandMutant b = commands.make(7, i);
    EXPECT_EQ(a.command.words, b.command.words) << "mutant " << i;
    EXPECT_FALSE(a.steps.empty()) << "mutant " << i;
    std::string line = a.command.tool;
    for (const auto& word : a.command.words) line += " " + word;
    seen.insert(line);
  }
  EXPECT_GT(seen.size(), 150u);  // mutants differ from one another
}

TEST(ToolRun, ASignalAndAHangAreToldApartFromAnExitStatus) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  const ToolRun exits =
      run_tool({"/bin/sh", "-c", "echo said; exit 2"}, dir, 10, "tool_run_test.log");
  EXPECT_EQ(abnormal_end(exits, 10), "");
  EXPECT_EQ(exits.status, 2);
  EXPECT_NE(exits.tail.find("said"), std::string::npos);
  const ToolRun killed = run_tool({"/bin/sh", "-c", "kill -SEGV $$"}, dir, 10, "tool_run_test.log");
  EXPECT_EQ(killed.signal, SIGSEGV);
  EXPECT_NE(abnormal_end(killed, 10).find("signal"), std::string::npos);
  const ToolRun hangs = run_tool({"/bin/sh", "-c", "sleep 30"}, dir, 0.2, "tool_run_test.log");
  EXPECT_TRUE(hangs.timed_out);
  EXPECT_NE(abnormal_end(hangs, 0.2).find("hang"), std::string::npos);
  std::filesystem::remove(dir + "/tool_run_test.log");
}

TEST(ConfigMutator, AMutantIsAFunctionOfSeedAndIndexAlone) {
  const auto m = mutator();
  const Mutant late = m.make(7, 150);
  for (std::uint64_t i = 0; i < 150; ++i) m.make(7, i);
  EXPECT_EQ(m.make(7, 150).text, late.text);
  EXPECT_EQ(m.make(7, 150).steps, late.steps);
  EXPECT_EQ(mutator().make(7, 150).text, late.text);
}

TEST(ConfigMutator, EveryMutantIsChangedAndSeedsDiffer) {
  const auto m = mutator();
  int same_as_other_seed = 0;
  for (std::uint64_t i = 0; i < 500; ++i) {
    const Mutant mutant = m.make(7, i);
    EXPECT_FALSE(mutant.steps.empty()) << i;
    if (mutant.text == m.make(8, i).text) ++same_as_other_seed;
  }
  EXPECT_LT(same_as_other_seed, 25);
}

TEST(ConfigMutator, MutantsReachEveryOutcomeAndNoFailure) {
  const auto m = mutator();
  std::map<Verdict, int> seen;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const auto outcome = judge_config_text(m.make(3, i).text, "mutant.toml");
    ++seen[outcome.verdict];
    EXPECT_NE(outcome.verdict, Verdict::Failed) << outcome.message;
  }
  for (auto verdict :
       {Verdict::SyntaxError, Verdict::Rejected, Verdict::TreeRejected, Verdict::Accepted}) {
    EXPECT_GT(seen[verdict], 30) << verdict_name(verdict);
  }
}

TEST(LoaderVerdict, JudgesEachAnswerOfTheLoaders) {
  const auto accepted = judge_config_text(kTreeSeed, "seed.toml");
  EXPECT_EQ(accepted.verdict, Verdict::Accepted) << accepted.message;
  EXPECT_TRUE(accepted.config.has_value());

  const auto syntax = judge_config_text("[router\n", "seed.toml");
  EXPECT_EQ(syntax.verdict, Verdict::SyntaxError);
  EXPECT_EQ(syntax.key, "seed.toml");

  const auto range = judge_config_text("[router]\nvcs = -1\n", "seed.toml");
  EXPECT_EQ(range.verdict, Verdict::Rejected);
  EXPECT_EQ(range.key, "router.vcs");

  const auto unknown = judge_config_text("[routers]\nspeed = 1\n", "seed.toml");
  EXPECT_EQ(unknown.verdict, Verdict::Rejected);
  EXPECT_EQ(unknown.key, "routers.speed");

  std::string two_roots = kTreeSeed;
  two_roots.replace(two_roots.find("to_root = \"-X\""), 14, "root = true");
  const auto tree = judge_config_text(two_roots, "seed.toml");
  EXPECT_EQ(tree.verdict, Verdict::TreeRejected) << tree.message;
  EXPECT_EQ(tree.key.rfind("collective.tree", 0), 0U) << tree.key;
}

// A stand-in for angara-sim: a shell script doing `body`.
class FakeSim : public testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("angara_fake_sim_" + std::to_string(getpid()) + "_" +
             testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  RunOutcome run(const std::string& body, double timeout_seconds = 10) {
    const auto script = m_dir / "sim.sh";
    std::ofstream(script) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    return probe_run(script.string(), "mutant.toml", {}, m_dir.string(), timeout_seconds);
  }

  std::filesystem::path m_dir;
};

TEST_F(FakeSim, DocumentedExitStatusesPass) {
  EXPECT_EQ(run("exit 0").verdict, RunVerdict::Ok);
  EXPECT_EQ(run("echo \"angara-sim: bad config: config key 'x.y' = 1: no\" >&2; exit 2").verdict,
            RunVerdict::BadConfig);
  EXPECT_EQ(run("echo 'angara-sim: model failure: deadlock' >&2; exit 3").verdict,
            RunVerdict::ModelFailure);
}

TEST_F(FakeSim, CrashesHangsAndOtherStatusesFail) {
  const auto segv = run("kill -SEGV $$");
  EXPECT_EQ(segv.verdict, RunVerdict::Failed);
  EXPECT_NE(segv.detail.find("signal 11"), std::string::npos) << segv.detail;
  const auto hang = run("sleep 5", 0.2);
  EXPECT_EQ(hang.verdict, RunVerdict::Failed);
  EXPECT_NE(hang.detail.find("hang"), std::string::npos) << hang.detail;
  EXPECT_EQ(run("exit 1").verdict, RunVerdict::Failed);
  EXPECT_EQ(run("echo 'angara-sim: bad config: --out' >&2; exit 2").verdict, RunVerdict::Failed);
  EXPECT_EQ(run("echo 'angara-sim: error: std::bad_alloc' >&2; exit 3").verdict,
            RunVerdict::Failed);
}

TEST(CrashReport, ACrashNamesTheMutant) {
  EXPECT_DEATH(
      {
        install_crash_report();
        begin_mutant("mutant 42: reproduce with --only 42\n", 10);
        raise(SIGSEGV);
      },
      "mutant 42: reproduce with --only 42");
}

TEST(CrashReport, AHangNamesTheMutant) {
  EXPECT_DEATH(
      {
        install_crash_report();
        begin_mutant("mutant 43: reproduce with --only 43\n", 1);
        for (;;) pause();
      },
      "HANG.*mutant 43: reproduce with --only 43");
}

}  // namespace
}  // namespace angara::fuzz
