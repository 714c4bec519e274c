#pragma once
// Runs the points of a sweep as separate angara-sim processes (one SystemC elaboration each),
// many at once, resumable (the sweep directory: sweep_dir.h).

#include <filesystem>
#include <string>
#include <vector>

#include "platform/sweep/sweep_dir.h"

namespace angara {

struct RunReport {
  int total = 0;
  int skipped = 0;  // already done
  int beyond = 0;   // not run: beyond saturation
  int ran = 0;
  std::vector<PointDir> failed;
};

// How a point over several MPI ranks is started: by mpirun on this machine (each rank takes one
// of the runner's `jobs` cores), or by srun as a job step of the Slurm task's allocation.
enum class RankLauncher { Mpirun, Srun };

// Runs the points that are not done, in the order given (of one sweep or several: one pool, so
// that no core idles while another sweep's long point runs), on at most `jobs` cores at a time
// (a point over R ranks takes R of them; one over more than `jobs` runs alone), with `sim` (the
// angara-sim executable). Progress goes to stderr: a bar with an ETA on a terminal, a line per
// point otherwise. A failing point is recorded and the others go on.
RunReport run_points(const std::vector<PointDir>& points, int jobs,
                     const std::filesystem::path& sim,
                     RankLauncher launcher = RankLauncher::Mpirun);

// The last `lines` lines of a point's log (all of it if shorter; "" for an empty log).
std::string log_tail(const std::string& text, int lines);

// The share of its run a running point has done, 0 to 1, from the last progress line in its log
// ("... (42%) ..."); 0 before the first.
double share_done(const std::string& log);

// The angara-sim next to the running executable.
std::filesystem::path sibling_executable(const std::string& name);

}  // namespace angara
