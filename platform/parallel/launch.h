#pragma once
// What started this process, read from the environment the launchers set.

namespace angara {

struct Launch {
  bool mpi = false;  // by mpirun, or srun --mpi=pmix: MPI can join the others
  int tasks = 1;     // the processes started together (1 when unknown)
};
Launch launch_of_this_process();

// A std::runtime_error when this process is one of several started to run together that cannot
// reach each other, so each would run the whole experiment: `mpi_built` says whether this build
// can join MPI at all.
void refuse_lone_copies(const Launch& launch, int mpi_size, bool mpi_built);

}  // namespace angara
