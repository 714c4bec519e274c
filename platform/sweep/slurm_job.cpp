#include "platform/sweep/slurm_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>
#include <stdexcept>

#include "models/core/config_error.h"
#include "platform/sweep/child_program.h"
#include "platform/sweep/sweep_files.h"
#include "platform/sweep/sweep_plan.h"

namespace angara {

namespace fs = std::filesystem;

namespace {

bool has_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A value shown in a message: control characters as C escapes, so a newline is seen.
std::string shown(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// `text` as one word of an #SBATCH line: sbatch reads quotes and backslash escapes there, and an
// unquoted '#' would start a comment. Plain words stay as they are.
std::string sbatch_word(const std::string& text) {
  if (text.find_first_of(" \t\"'\\#") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += (c == '"' || c == '\\') ? std::string{'\\', c} : std::string(1, c);
  return out + "\"";
}

// A directory inside a Slurm file-name pattern, where '%' starts a replacement.
std::string pattern_escaped(const fs::path& dir) {
  std::string out;
  for (char c : dir.string()) out += c == '%' ? "%%" : std::string(1, c);
  return out;
}

// Runs sbatch with `args`; returns the job id it prints (--parsable), or throws with its
// message.
std::string sbatch(std::vector<std::string> args) {
  args.insert(args.begin(), {"sbatch", "--parsable"});
  ProgramResult result;
  try {
    result = run_program(args, true);
  } catch (const ProgramNotFound& e) {
    throw std::runtime_error(std::string(e.what()) + " (is this a Slurm login node?)");
  }
  std::string output = result.output;
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  if (!result.ok()) {
    throw std::runtime_error(fmt::format("sbatch failed ({}): {}", exit_text(result.wait_status),
                                         output.empty() ? "(no output)" : output));
  }
  // --parsable prints "jobid[;cluster]"; with --wait the id is on the first line.
  const std::string first = output.substr(0, output.find('\n'));
  return first.substr(0, first.find(';'));
}

}  // namespace

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void validate(const SlurmOptions& options) {
  static const std::regex kPartition("[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*");
  static const std::regex kTime(
      "([0-9]+-)?[0-9]+(:[0-9]+){0,2}|UNLIMITED|INFINITE|unlimited|infinite");
  if (!options.partition.empty() && !std::regex_match(options.partition, kPartition)) {
    throw ConfigError("--partition", shown(options.partition),
                      "a Slurm partition name (letters, digits, '_', '-', '.'; several separated "
                      "by ',')");
  }
  if (!options.time.empty() && !std::regex_match(options.time, kTime)) {
    throw ConfigError("--time", shown(options.time),
                      "a Slurm time limit: MINUTES, [DAYS-]HOURS:MINUTES[:SECONDS], "
                      "DAYS-HOURS or UNLIMITED");
  }
  for (const auto& option : options.extra) {
    if (option.empty() || option.front() != '-' || has_control(option)) {
      throw ConfigError("--sbatch", shown(option),
                        "an sbatch option such as --mem=4G, one line (no newline or other "
                        "control character), starting with '-'");
    }
  }
}

void check_script_path(const fs::path& dir) {
  if (has_control(dir.string())) {
    throw ConfigError("--out", shown(dir.string()),
                      "the sweep directory's path goes into the batch script: no newline or "
                      "other control character");
  }
}

int parse_count(const std::string& flag, const std::string& text, long long min, long long max,
                const std::string& what) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < min || value > max) {
    throw ConfigError(flag, shown(text),
                      fmt::format("{}: a whole number from {} to {}", what, min, max));
  }
  return static_cast<int>(value);
}

std::pair<int, int> task_points(int index, int chunk, int points) {
  const int tasks = std::max(1, (points + chunk - 1) / chunk);
  if (index >= tasks) {
    throw ConfigError("--index", std::to_string(index),
                      fmt::format("the sweep has {} points, {} per task: array tasks 0 to {}",
                                  points, chunk, tasks - 1));
  }
  const int first = std::min(points, index * chunk);
  return {first, std::min(points, first + chunk)};
}

namespace {

// The allocation options the array and its collect job share, as sbatch arguments: partition,
// time limit and the extras.
std::vector<std::string> shared_options(const SlurmOptions& options) {
  std::vector<std::string> args;
  if (!options.partition.empty()) args.push_back("--partition=" + options.partition);
  if (!options.time.empty()) args.push_back("--time=" + options.time);
  args.insert(args.end(), options.extra.begin(), options.extra.end());
  return args;
}

}  // namespace

std::string job_name(const fs::path& dir) {
  const fs::path path = fs::absolute(dir).lexically_normal();
  std::string name = (path.has_filename() ? path : path.parent_path()).filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  }
  return name.empty() ? "angara-sweep" : name;
}

fs::path write_sbatch(const fs::path& dir, int points, int ranks, const SlurmOptions& options,
                      const fs::path& sweep_exe) {
  validate(options);
  const fs::path root = fs::absolute(dir);
  check_script_path(root);
  const int tasks = (points + options.chunk - 1) / options.chunk;
  fs::create_directories(root / "slurm");
  std::string text = "#!/bin/bash\n#SBATCH --job-name=" + job_name(root) + "\n";
  text += fmt::format("#SBATCH --array=0-{}", tasks - 1);
  if (options.max_running > 0) text += fmt::format("%{}", options.max_running);
  text += "\n";
  // A point over several ranks is a job step of the task's allocation (srun --mpi=pmix).
  text += fmt::format("#SBATCH --ntasks={}\n#SBATCH --cpus-per-task=1\n", ranks);
  text += "#SBATCH --output=" + sbatch_word(pattern_escaped(root) + "/slurm/task-%A_%a.out") + "\n";
  for (const auto& option : shared_options(options))
    text += "#SBATCH " + sbatch_word(option) + "\n";
  text += fmt::format("# {} points, {} per task\n", points, options.chunk);
  text += fmt::format("exec {} task {} --index \"$SLURM_ARRAY_TASK_ID\" --chunk {}\n",
                      shell_quoted(fs::absolute(sweep_exe).string()), shell_quoted(root.string()),
                      options.chunk);
  const fs::path script = root / "sweep.sbatch";
  write_text(script, text, "--out (its sweep.sbatch)");
  return script;
}

std::string submit(const fs::path& script, const SlurmOptions& options) {
  std::vector<std::string> args;
  if (options.wait) args.emplace_back("--wait");
  args.push_back(script.string());
  return sbatch(args);
}

std::string submit_collect(const fs::path& dir, const std::string& job, const SlurmOptions& options,
                           const fs::path& sweep_exe) {
  const fs::path root = fs::absolute(dir);
  check_script_path(root);
  std::vector<std::string> args{"--job-name=" + job_name(root) + "-collect",
                                "--dependency=afterany:" + job,
                                "--output=" + pattern_escaped(root) + "/slurm/collect-%j.out"};
  if (options.wait) args.emplace_back("--wait");
  for (auto& option : shared_options(options)) args.push_back(std::move(option));
  args.push_back("--wrap=exec " + shell_quoted(fs::absolute(sweep_exe).string()) + " collect " +
                 shell_quoted(root.string()));
  return sbatch(args);
}

}  // namespace angara
