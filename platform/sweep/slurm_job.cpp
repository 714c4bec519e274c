#include "platform/sweep/slurm_job.h"

#include <fmt/format.h>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "platform/files/output_file.h"

namespace angara {

namespace fs = std::filesystem;

fs::path write_sbatch(const fs::path& dir, int points, const SlurmOptions& options,
                      const fs::path& sweep_exe) {
  const fs::path root = fs::absolute(dir);
  const int tasks = (points + options.chunk - 1) / options.chunk;
  fs::create_directories(root / "slurm");
  fs::path script = root / "sweep.sbatch";
  std::ostringstream out;
  out << "#!/bin/bash\n"
      << "#SBATCH --job-name=angara-sweep\n"
      << fmt::format("#SBATCH --array=0-{}\n", tasks - 1)
      << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
      << fmt::format("#SBATCH --output={}/slurm/task-%A_%a.out\n", root.string());
  if (!options.partition.empty()) out << "#SBATCH --partition=" << options.partition << "\n";
  if (!options.time.empty()) out << "#SBATCH --time=" << options.time << "\n";
  for (const auto& option : options.extra) out << "#SBATCH " << option << "\n";
  out << fmt::format("# {} points, {} per task\n", points, options.chunk)
      << fmt::format("exec '{}' task '{}' --index \"$SLURM_ARRAY_TASK_ID\" --chunk {}\n",
                     fs::absolute(sweep_exe).string(), root.string(), options.chunk);
  write_file(out.str(), script, "--out (its sweep.sbatch)");
  return script;
}

namespace {

// Runs an sbatch command line; returns the job id it prints (--parsable), or throws with its
// message.
std::string sbatch(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run sbatch");
  std::string output;
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  if (status != 0) {
    throw std::runtime_error(
        fmt::format("{} failed: {}", command, output.empty() ? "(no output)" : output));
  }
  // --parsable prints "jobid[;cluster]"; with --wait the id is on the first line.
  const std::string first = output.substr(0, output.find('\n'));
  return first.substr(0, first.find(';'));
}

}  // namespace

std::string submit(const fs::path& script, const SlurmOptions& options) {
  return sbatch(
      fmt::format("sbatch --parsable {} '{}' 2>&1", options.wait ? "--wait" : "", script.string()));
}

std::string submit_collect(const fs::path& dir, const std::string& job, const fs::path& sweep_exe) {
  const fs::path root = fs::absolute(dir);
  return sbatch(
      fmt::format("sbatch --parsable --job-name=angara-collect --dependency=afterany:{} "
                  "--output='{}/slurm/collect-%j.out' --wrap=\"exec '{}' collect '{}'\" 2>&1",
                  job, root.string(), fs::absolute(sweep_exe).string(), root.string()));
}

}  // namespace angara
