#pragma once
// A sweep as a Slurm job array: one sbatch script, K points per array task. Each task runs
// `angara-sweep task DIR --index I --chunk K`, which skips points already done, so submitting
// again runs only what is missing. Nothing is handed to a shell unquoted: the options are checked
// (one line each, in Slurm's syntax), paths are quoted in the script, and sbatch is run from an
// argument vector.

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
  int max_running = 0;             // array tasks running at once (%N); 0: as Slurm allows
  std::vector<std::string> extra;  // more sbatch options, e.g. "--mem=4G", one #SBATCH line each
};

// The Slurm job name of the sweep in `dir`: the directory's name, with what squeue would not
// show as it is ('_' for anything but letters, digits, '-' and '.').
std::string job_name(const std::filesystem::path& dir);

// Throws a ConfigError naming the flag unless the partition is Slurm names (letters, digits, '_',
// '-', '.', comma-separated), the time is Slurm's [D-]H[:M[:S]] or UNLIMITED, and each extra
// option starts with '-' and holds no newline or other control character.
void validate(const SlurmOptions& options);

// Throws a ConfigError naming --out if the sweep directory's path cannot go into a batch script
// (a newline or other control character would end the line it is on).
void check_script_path(const std::filesystem::path& dir);

// `text` as a whole number from `min` to `max`, or a ConfigError naming `flag`, the text and the
// rule (`what` says what the number is).
int parse_count(const std::string& flag, const std::string& text, long long min, long long max,
                const std::string& what);

// The points [first, last) that array task `index` runs, `chunk` points a task, of `points`; an
// index that is not one of the array's tasks is a ConfigError naming --index.
std::pair<int, int> task_points(int index, int chunk, int points);

// Writes DIR/sweep.sbatch for `points` points, each over `ranks` MPI ranks (a task of that many
// Slurm tasks), and returns its path. Each task's output goes to DIR/slurm/task-JOB_TASK.out, so a
// resubmission keeps the earlier job's.
std::filesystem::path write_sbatch(const std::filesystem::path& dir, int points, int ranks,
                                   const SlurmOptions& options,
                                   const std::filesystem::path& sweep_exe);

// Submits the script with sbatch; returns the job id, or throws with sbatch's message.
std::string submit(const std::filesystem::path& script, const SlurmOptions& options);

// Submits `angara-sweep collect DIR` to run once job `job` has ended however it ended (its
// output in DIR/slurm/collect-JOB.out), with the array's partition, time limit and extra options
// (a cluster that needs an account for one needs it for both), waiting for it with `wait`;
// returns its job id.
std::string submit_collect(const std::filesystem::path& dir, const std::string& job,
                           const SlurmOptions& options, const std::filesystem::path& sweep_exe);

// `text` in single quotes for a POSIX shell (a quote inside as '\'').
std::string shell_quoted(const std::string& text);

}  // namespace angara
