#include "platform/parallel/launch.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace angara {
namespace {

int number(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : 0;
}

}  // namespace

Launch launch_of_this_process() {
  Launch launch;
  if (const int ompi = number("OMPI_COMM_WORLD_SIZE"); ompi > 0) return {true, ompi};
  launch.mpi = std::getenv("PMIX_RANK") != nullptr;
  launch.tasks = std::max(1, number("SLURM_STEP_NUM_TASKS"));
  return launch;
}

void refuse_lone_copies(const Launch& launch, int mpi_size, bool mpi_built) {
  if (launch.tasks <= 1 || mpi_size > 1) return;
  const std::string tasks = std::to_string(launch.tasks);
  if (!mpi_built) {
    throw std::runtime_error("started as one of " + tasks +
                             " processes, but this angara-sim was built without MPI, so each "
                             "would run the whole experiment: install libopenmpi-dev "
                             "(.ci/install-deps does) and build again, or start one process");
  }
  throw std::runtime_error("started as one of " + tasks +
                           " processes that MPI cannot join, so each would run the whole "
                           "experiment: under Slurm start them with srun --mpi=pmix (or mpirun "
                           "inside the allocation)");
}

}  // namespace angara
