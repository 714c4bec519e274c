#pragma once
// A sweep as a Slurm job array: one sbatch script, K points per array task. Each task runs
// `angara-sweep task DIR --index I --chunk K`, which skips points already done, so submitting
// again runs only what is missing.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace angara {

struct SlurmOptions {
  std::string partition;           // empty: the cluster's default
  std::string time;                // per task, Slurm syntax (e.g. "01:00:00"); empty: the default
  int chunk = 1;                   // points per array task
  bool wait = false;               // sbatch --wait: return when the whole array has finished
  std::vector<std::string> extra;  // more sbatch options, e.g. "--mem=4G", one #SBATCH line each
};

// Writes DIR/sweep.sbatch for `points` points and returns its path. Each task's output goes to
// DIR/slurm/task-JOB_TASK.out, so a resubmission keeps the earlier job's.
std::filesystem::path write_sbatch(const std::filesystem::path& dir, int points,
                                   const SlurmOptions& options,
                                   const std::filesystem::path& sweep_exe);

// Submits the script with sbatch; returns the job id, or throws with sbatch's message.
std::string submit(const std::filesystem::path& script, const SlurmOptions& options);

// Submits `angara-sweep collect DIR` to run once job `job` has ended however it ended (its
// output in DIR/slurm/collect-JOB.out); returns its job id.
std::string submit_collect(const std::filesystem::path& dir, const std::string& job,
                           const std::filesystem::path& sweep_exe);

}  // namespace angara
