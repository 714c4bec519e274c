// config_fuzz: the seeded mutation fuzzer of the config and tree loaders. Mutates valid configs
// (config_mutator.h), loads each mutant in this process (loader_verdict.h), runs a sample of the
// accepted ones through angara-sim (sim_probe.h), counts the outcomes by class and fails on any
// crash, sanitizer report, hang, exception that is not a ConfigError naming a key, or exit status
// angara-sim does not document. Mutant I of seed S is the same on every run, so a failure is
// reproduced with `--seed S --only I` and the same seed configs.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <boost/program_options.hpp>

#include "models/core/rng.h"
#include "platform/config/config_loader.h"
#include "regress/fuzz/config_mutator.h"
#include "regress/fuzz/crash_report.h"
#include "regress/fuzz/loader_verdict.h"
#include "regress/fuzz/sim_probe.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace angara::fuzz {
namespace {

constexpr std::size_t kShownFailures = 10;     // failures printed in full; the rest counted
constexpr std::size_t kShownTextChars = 4000;  // of a failing mutant's text

struct Options {
  std::uint64_t seed = 1;
  std::uint64_t mutants = 1000;
  std::optional<std::uint64_t> only;
  unsigned mutant_seconds = 10;  // in-process load of one mutant
  std::string sim;               // angara-sim; empty: no runs
  std::uint64_t run_every = 50;  // run about one accepted mutant in this many
  int run_max_nodes = 512;       // run only machines this small
  double run_seconds = 60;       // time limit of one run
  std::vector<std::string> seed_paths;
};

// The seed configs: files, and the *.toml files of directories, in name order.
std::vector<Seed> read_seeds(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const auto& path : paths) {
    if (!fs::is_directory(path)) {
      files.emplace_back(path);
      continue;
    }
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".toml") {
        found.push_back(entry.path());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  std::vector<Seed> seeds;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw std::runtime_error("cannot read seed " + file.string());
    seeds.push_back({file.string(), text.str()});
    // A seed that does not load would make every mutant of it a rejection that proves nothing.
    const auto outcome = judge_config_text(seeds.back().text, file.string());
    if (outcome.verdict != Verdict::Accepted) {
      throw std::runtime_error(
          fmt::format("seed {} is not a valid config: {}", file.string(), outcome.message));
    }
  }
  if (seeds.empty()) throw std::runtime_error("no seed configs");
  return seeds;
}

std::string reproduce_command(const Options& options, std::uint64_t index) {
  std::string command = fmt::format("config_fuzz --seed {} --only {}", options.seed, index);
  if (!options.sim.empty()) command += " --sim " + options.sim;
  return command + " " + fmt::format("{}", fmt::join(options.seed_paths, " "));
}

// What is said of a mutant that fails: which, from which seed, how, and its text.
std::string mutant_report(const Options& options, const ConfigMutator& mutator, std::uint64_t index,
                          const Mutant& mutant) {
  std::string text = mutant.text.substr(0, kShownTextChars);
  if (mutant.text.size() > kShownTextChars) text += "\n... (cut)";
  return fmt::format(
      "mutant {} of seed {}, from {}: {}\nreproduce: {}\n--- mutant ---\n{}\n--- end of mutant "
      "---\n",
      index, options.seed, mutator.seeds()[mutant.seed].name, fmt::join(mutant.steps, "; "),
      reproduce_command(options, index), text);
}

// "collective.tree[3].rows[12].node" and "collective.tree[0].rows[1].node" are one key.
std::string key_class(const std::string& key) {
  static const std::regex kIndex(R"(\[[0-9]+\])");
  return std::regex_replace(key, kIndex, "[]");
}

class Tally {
 public:
  void count(Verdict verdict, const std::string& key) {
    ++m_verdicts[verdict];
    if (!key.empty() && verdict != Verdict::SyntaxError) m_keys.insert(key_class(key));
  }
  void count_run(RunVerdict verdict) { ++m_runs[verdict]; }
  void fail(const std::string& what, const std::string& report) {
    if (++m_failures <= kShownFailures) std::cout << "FAIL " << what << "\n" << report << "\n";
  }
  std::size_t failures() const { return m_failures; }

  void print(const Options& options, std::size_t seeds, double seconds) const {
    std::size_t mutants = 0;
    for (const auto& [verdict, n] : m_verdicts) mutants += n;
    std::cout << fmt::format("config_fuzz: {} mutants of {} seed configs, seed {}, {:.1f} s\n",
                             mutants, seeds, options.seed, seconds);
    for (const auto verdict : {Verdict::SyntaxError, Verdict::Rejected, Verdict::TreeRejected,
                               Verdict::Accepted, Verdict::Failed}) {
      std::cout << fmt::format("  {:7} {}\n", at(m_verdicts, verdict), verdict_name(verdict));
    }
    std::cout << fmt::format("  the ConfigErrors named {} different keys\n", m_keys.size());
    if (!options.sim.empty()) {
      std::cout << fmt::format(
          "  {:7} accepted mutants run by angara-sim (about 1 in {}, up to {} nodes): {} ran, "
          "{} bad config at run time (exit 2), {} model failures (exit 3), {} failed\n",
          runs(), options.run_every, options.run_max_nodes, at(m_runs, RunVerdict::Ok),
          at(m_runs, RunVerdict::BadConfig), at(m_runs, RunVerdict::ModelFailure),
          at(m_runs, RunVerdict::Failed));
    }
    std::cout << fmt::format("{} passed, {} failed\n", mutants - m_failures, m_failures);
  }

 private:
  template <typename Map, typename Key>
  static std::size_t at(const Map& map, Key key) {
    const auto found = map.find(key);
    return found == map.end() ? 0 : found->second;
  }
  std::size_t runs() const {
    std::size_t all = 0;
    for (const auto& [verdict, n] : m_runs) all += n;
    return all;
  }
  std::map<Verdict, std::size_t> m_verdicts;
  std::map<RunVerdict, std::size_t> m_runs;
  std::set<std::string> m_keys;
  std::size_t m_failures = 0;
};

// The sampled runs look for crashes and hangs, not results: their cycles are capped, and so is
// the work of the kinds that run until it is done (a million round trips is long, not a hang).
constexpr int kRunRepetitions = 5;
constexpr int kRunMessages = 50;
constexpr std::uint64_t kRunRows = 65536;  // SpMV's full 20.48 million rows: minutes in LT

std::vector<std::string> run_caps(const Config& config) {
  std::vector<std::string> args{"--set", "sim.warmup_cycles=100", "--set", "sim.measure_cycles=500",
                                "--set", "sim.drain_cycles=5000"};
  if (config.workload.repetitions > kRunRepetitions) {
    args.insert(args.end(), {"--set", fmt::format("workload.repetitions={}", kRunRepetitions)});
  }
  if (config.workload.messages > kRunMessages) {
    args.insert(args.end(), {"--set", fmt::format("workload.messages={}", kRunMessages)});
  }
  if (config.workload.kind == WorkloadKind::Spmv && config.app.rows > kRunRows) {
    args.insert(args.end(), {"--set", fmt::format("app.rows={}", kRunRows)});
  }
  return args;
}

bool sampled(const Options& options, std::uint64_t index, const LoaderOutcome& outcome) {
  if (options.sim.empty() || outcome.verdict != Verdict::Accepted) return false;
  if (outcome.config->topology.node_count() > options.run_max_nodes) return false;
  return options.only || mix64(options.seed ^ mix64(index)) % options.run_every == 0;
}

// Runs the accepted mutant through angara-sim in `work`, emptied first, with `caps`.
RunOutcome run_mutant(const Options& options, const Mutant& mutant,
                      const std::vector<std::string>& caps, const fs::path& work) {
  fs::remove_all(work);
  fs::create_directories(work);
  std::ofstream(work / "mutant.toml", std::ios::binary) << mutant.text;
  return probe_run(options.sim, "mutant.toml", caps, work.string(), options.run_seconds);
}

int fuzz(const Options& options) {
  const auto started = std::chrono::steady_clock::now();
  const ConfigMutator mutator(read_seeds(options.seed_paths), config_to_toml(Config{}));
  const fs::path work = fs::temp_directory_path() / fmt::format("config_fuzz_{}", getpid());
  install_crash_report();
  Tally tally;
  const std::uint64_t first = options.only.value_or(0);
  const std::uint64_t last = options.only ? first + 1 : options.mutants;
  for (std::uint64_t index = first; index < last; ++index) {
    const Mutant mutant = mutator.make(options.seed, index);
    const std::string report = mutant_report(options, mutator, index, mutant);
    if (options.only) std::cout << report;
    begin_mutant(report, options.mutant_seconds);
    const LoaderOutcome outcome = judge_config_text(mutant.text, "mutant.toml");
    end_mutant();
    tally.count(outcome.verdict, outcome.key);
    if (options.only) std::cout << verdict_name(outcome.verdict) << ": " << outcome.message << "\n";
    if (outcome.verdict == Verdict::Failed) tally.fail(outcome.message, report);
    if (!sampled(options, index, outcome)) continue;
    const auto caps = run_caps(*outcome.config);
    const RunOutcome run = run_mutant(options, mutant, caps, work);
    tally.count_run(run.verdict);
    if (run.verdict == RunVerdict::Failed) {
      tally.fail(fmt::format("angara-sim run mutant.toml {}: {}", fmt::join(caps, " "), run.detail),
                 report);
    }
  }
  fs::remove_all(work);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
  tally.print(options, mutator.seeds().size(), seconds.count());
  return tally.failures() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace angara::fuzz

int main(int argc, char** argv) {
  angara::fuzz::Options options;
  po::options_description described(
      "usage: config_fuzz [options] SEED_CONFIG_OR_DIR...\n"
      "Mutates the seed configs and loads every mutant through the config and tree loaders");
  std::uint64_t only = 0;
  described.add_options()("help,h", "this help")(
      "seed", po::value(&options.seed)->default_value(options.seed), "the run's random seed")(
      "mutants", po::value(&options.mutants)->default_value(options.mutants),
      "mutants made and loaded")("only", po::value(&only),
                                 "make, print and load mutant ONLY alone (to reproduce a failure)")(
      "mutant-seconds", po::value(&options.mutant_seconds)->default_value(options.mutant_seconds),
      "time limit of one mutant's load (a hang)")(
      "sim", po::value(&options.sim), "angara-sim: run a sample of the accepted mutants")(
      "run-every", po::value(&options.run_every)->default_value(options.run_every),
      "run about one accepted mutant in this many")(
      "run-max-nodes", po::value(&options.run_max_nodes)->default_value(options.run_max_nodes),
      "run only mutants of at most this many nodes")(
      "run-seconds", po::value(&options.run_seconds)->default_value(options.run_seconds),
      "time limit of one run (a hang)")("seeds", po::value(&options.seed_paths), "");
  po::positional_options_description positional;
  positional.add("seeds", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(described).positional(positional).run(),
              vm);
    po::notify(vm);
  } catch (const po::error& error) {
    std::cerr << "config_fuzz: " << error.what() << "\n" << described << "\n";
    return 2;
  }
  if (vm.count("help") || options.seed_paths.empty() || options.run_every == 0) {
    std::cout << described << "\n";
    return vm.count("help") ? 0 : 2;
  }
  if (vm.count("only")) options.only = only;
  if (!options.sim.empty()) options.sim = fs::absolute(options.sim).string();  // runs chdir
  try {
    return angara::fuzz::fuzz(options);
  } catch (const std::exception& error) {
    std::cerr << "config_fuzz: " << error.what() << "\n";
    return 2;
  }
}
