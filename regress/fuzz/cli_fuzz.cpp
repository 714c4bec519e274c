// cli_fuzz: the seeded mutation fuzzer of the command lines and sweep files. Each mutant is a
// seed command (cli_seeds/commands.txt) with hostile words (command_mutator.h), run as a user
// would in a scratch directory of its own, beside a sweep file that is itself a mutant of a seed
// sweep half the time (config_mutator.h). It fails on a crash, a sanitizer's report, a hang, an
// exit status the tools do not document (0; 1 usage; 2 bad config or input; 3 a model failure),
// a changed input or planted file (the FIFO, the directory, the symlink and what it points to),
// and a file PWNED (a shell or gnuplot command run from a word). Mutant I of seed S is the same
// on every run: reproduce one with `--seed S --only I`.

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "platform/config/config.h"
#include "platform/config/config_loader.h"
#include "regress/fuzz/command_mutator.h"
#include "regress/fuzz/config_mutator.h"
#include "regress/fuzz/tool_run.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace angara::fuzz {
namespace {

constexpr std::size_t kShownFailures = 10;

// A small machine, so that a run a mutant makes is short.
constexpr const char* kConfig = R"(
[topology]
dims = [2, 2]
[sim]
warmup_cycles = 100
measure_cycles = 400
drain_cycles = 4000
progress = false
)";

constexpr const char* kVcd = R"($timescale 1 ns $end
$scope module top $end
$var wire 1 ! valid $end
$upscope $end
$enddefinitions $end
#0
0!
#10
1!
)";

struct Options {
  std::uint64_t seed = 1;
  std::uint64_t mutants = 100;
  std::optional<std::uint64_t> only;
  std::string sim, sweep, seeds_dir;
  double timeout = 30;
  bool show = false;  // print every mutant and the last line of its output
};

// What a scratch directory holds before a mutant runs: name -> its type and, for a file, its text.
using Snapshot = std::map<std::string, std::string>;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

Snapshot snapshot(const fs::path& dir) {
  Snapshot seen;
  for (const char* name :
       {"config.toml", "sweep.toml", "a.vcd", "b.vcd", "victim.txt", "fifo", "adir", "link"}) {
    const fs::path path = dir / name;
    const fs::file_status status = fs::symlink_status(path);
    std::string what = fmt::format("type {}", static_cast<int>(status.type()));
    if (fs::is_symlink(status)) what += " -> " + fs::read_symlink(path).string();
    if (fs::is_regular_file(status)) what += ": " + read_file(path);
    if (fs::is_directory(status))
      what += fmt::format(" ({} entries)",
                          std::distance(fs::directory_iterator(path), fs::directory_iterator()));
    seen[name] = what;
  }
  return seen;
}

void prepare(const fs::path& dir, const std::string& sweep_text) {
  fs::create_directories(dir / "adir");
  write(dir / "config.toml", kConfig);
  write(dir / "sweep.toml", sweep_text);
  write(dir / "a.vcd", kVcd);
  write(dir / "b.vcd", kVcd);
  write(dir / "victim.txt", "not to be touched\n");
  fs::create_symlink("victim.txt", dir / "link");
  if (mkfifo((dir / "fifo").c_str(), 0644) != 0) throw std::runtime_error("cannot make a FIFO");
}

// The environment of a mutant: gnuplot reachable (a plot is a place for injection), sbatch not
// (a command that lost its --dry-run must not submit anything).
std::vector<std::string> environment(const fs::path& bin) {
  fs::create_directories(bin);
  for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
    if (fs::exists(fs::path(dir) / "gnuplot") && !fs::exists(bin / "gnuplot")) {
      fs::create_symlink(fs::path(dir) / "gnuplot", bin / "gnuplot");
    }
  }
  std::vector<std::string> env{"PATH=" + bin.string(), "LANG=C.UTF-8"};
  if (const char* home = std::getenv("HOME")) env.push_back(std::string("HOME=") + home);
  return env;
}

// What is wrong with the run of a mutant, or "" if nothing.
std::string verdict(const ToolRun& run, const Snapshot& before, const fs::path& dir,
                    double timeout) {
  if (std::string abnormal = abnormal_end(run, timeout); !abnormal.empty()) return abnormal;
  for (const char* report :
       {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called", "Assertion"}) {
    if (run.tail.find(report) != std::string::npos) {
      return fmt::format("a report ({}):\n{}", report, run.tail);
    }
  }
  if (run.status > 3 ||
      (run.status == 3 && run.tail.find("model failure: ") == std::string::npos)) {
    return fmt::format(
        "exit status {} (documented: 0, 1 usage, 2 bad input, 3 a model failure)\n{}", run.status,
        run.tail);
  }
  if (fs::exists(fs::symlink_status(dir / kInjectionMarker))) {
    return fmt::format("a command was run from a word: {} exists\n{}", kInjectionMarker, run.tail);
  }
  const Snapshot after = snapshot(dir);
  for (const auto& [name, was] : before) {
    if (after.at(name) != was) {
      return fmt::format("{} changed: was {}, now {}\n{}", name, was.substr(0, 200),
                         after.at(name).substr(0, 200), run.tail);
    }
  }
  return "";
}

std::string quoted(const Command& command) {
  std::string out = command.tool;
  for (const auto& word : command.words) out += " '" + word.substr(0, 80) + "'";
  return out;
}

int fuzz(const Options& options) {
  const fs::path seeds(options.seeds_dir);
  const CommandMutator commands(read_commands((seeds / "commands.txt").string()));
  std::vector<Seed> sweep_seeds;
  for (const char* name : {"sweep_small.toml", "sweep_range.toml"}) {
    sweep_seeds.push_back({name, read_file(seeds / name)});
  }
  const ConfigMutator sweeps(sweep_seeds, config_to_toml(Config{}));
  const fs::path work = fs::temp_directory_path() / fmt::format("cli_fuzz_{}", getpid());
  std::vector<std::string> env = environment(work / "bin");

  std::map<std::string, std::uint64_t> counts;
  std::uint64_t failures = 0;
  const std::uint64_t first = options.only.value_or(0);
  const std::uint64_t last = options.only ? *options.only + 1 : options.mutants;
  for (std::uint64_t index = first; index < last; ++index) {
    const CommandMutant mutant = commands.make(options.seed, index);
    const bool sweep_mutated = index % 2 == 1;
    const Mutant sweep = sweeps.make(options.seed, index);
    const std::string sweep_text =
        sweep_mutated ? sweep.text : sweep_seeds[index / 2 % sweep_seeds.size()].text;
    const fs::path dir = work / fmt::format("m{}", index);
    prepare(dir, sweep_text);
    const Snapshot before = snapshot(dir);
    std::vector<std::string> words{mutant.command.tool == "sim" ? options.sim : options.sweep};
    words.insert(words.end(), mutant.command.words.begin(), mutant.command.words.end());
    const ToolRun run = run_tool(words, dir.string(), options.timeout, "tool.log", &env);
    const std::string wrong = verdict(run, before, dir, options.timeout);
    if (options.show) {
      std::string said = run.tail;
      while (!said.empty() && said.back() == '\n') said.pop_back();
      said = said.substr(said.rfind('\n') + 1);
      std::cout << fmt::format("{}: exit {}: {}\n  {}\n", index, run.status, quoted(mutant.command),
                               said.substr(0, 300));
    }
    if (wrong.empty()) {
      ++counts[fmt::format("exit {}", run.status)];
    } else {
      ++counts["failed"];
      if (++failures <= kShownFailures) {
        std::string steps;
        for (const auto& step : mutant.steps) steps += "\n  " + step;
        if (sweep_mutated) {
          for (const auto& step : sweep.steps) steps += "\n  sweep.toml: " + step;
        }
        std::cout << fmt::format("FAIL mutant {} (--seed {} --only {}): {}{}\n{}\n\n", index,
                                 options.seed, index, quoted(mutant.command), steps, wrong);
      }
    }
    fs::remove_all(dir);
  }
  fs::remove_all(work);
  std::cout << fmt::format("cli_fuzz: {} mutants of {} commands and {} sweep files (seed {}):",
                           last - first, commands.seeds().size(), sweep_seeds.size(), options.seed);
  for (const auto& [what, count] : counts) std::cout << fmt::format(" {} {},", what, count);
  std::cout << "\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace angara::fuzz

int main(int argc, char** argv) {
  angara::fuzz::Options options;
  po::options_description flags("cli_fuzz options");
  std::uint64_t only = 0;
  flags.add_options()("help,h", "this help")(
      "seed", po::value(&options.seed)->default_value(1),
      "the run's seed: mutant I of seed S is always the same")(
      "mutants", po::value(&options.mutants)->default_value(100), "how many mutants to run")(
      "only", po::value(&only), "run only mutant I (to reproduce a failure)")(
      "sim", po::value(&options.sim)->required(), "the angara-sim to run")(
      "sweep", po::value(&options.sweep)->required(), "the angara-sweep to run")(
      "seeds", po::value(&options.seeds_dir)->required(),
      "the seed directory: commands.txt and the seed sweep files")(
      "timeout", po::value(&options.timeout)->default_value(30), "seconds a mutant may run")(
      "show", po::bool_switch(&options.show), "print every mutant and the end of its output");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, flags), vm);
    if (vm.count("help")) {
      std::cout << "usage: cli_fuzz --sim ANGARA_SIM --sweep ANGARA_SWEEP --seeds DIR [options]\n"
                   "Mutates command lines and sweep files and runs them; fails on a crash, a\n"
                   "hang, an undocumented exit status, a changed input or an injected command.\n\n"
                << flags;
      return 0;
    }
    po::notify(vm);
    if (vm.count("only")) options.only = only;
    // The tools run in the mutants' own directories.
    options.sim = std::filesystem::absolute(options.sim).string();
    options.sweep = std::filesystem::absolute(options.sweep).string();
    return angara::fuzz::fuzz(options);
  } catch (const std::exception& e) {
    std::cerr << "cli_fuzz: " << e.what() << "\n";
    return 2;
  }
}
