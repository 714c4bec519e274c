#pragma once
// This process's place among the MPI ranks one run is split over, and the few collective
// operations such a run needs. A process no MPI launcher started (or a build without MPI) is the
// one rank of its run, and every operation is then the identity, with no MPI call.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "platform/parallel/bytes.h"

namespace angara {

class Ranks {
 public:
  // The process's ranks: MPI_COMM_WORLD when an MPI launcher started it, else one rank.
  static Ranks& world();
  // Joins MPI when an MPI launcher (mpirun, srun --mpi=pmix) started this process. Throws
  // std::runtime_error, saying how to launch, when the launcher started several processes that
  // cannot see each other (srun without --mpi=pmix), or in a build without MPI.
  static void start(int* argc, char*** argv);
  // Leaves MPI, if joined.
  static void stop();
  // Ends every rank of the run with exit status `code` (one rank hit an error the others
  // cannot know of); returns normally with one rank.
  static void abort(int code);

  int rank() const { return m_rank; }
  int size() const { return m_size; }
  bool parallel() const { return m_size > 1; }
  bool root() const { return m_rank == 0; }

  // Every rank calls these at the same point of the run, in the same order.
  void sum(std::span<std::uint64_t> values) const;  // in place: the sums over all ranks
  std::uint64_t sum(std::uint64_t value) const;
  void max(std::span<std::uint64_t> values) const;  // in place: the maxima over all ranks
  std::uint64_t max(std::uint64_t value) const;
  void min(std::span<std::uint64_t> values) const;  // in place: the minima over all ranks
  std::uint64_t min(std::uint64_t value) const;
  // Rank 0 gets every rank's bytes, in rank order; the others get nothing.
  std::vector<Bytes> gather(const Bytes& bytes) const;
  // Every rank gets rank 0's bytes.
  Bytes broadcast(Bytes bytes) const;
  // Sends out[i] to rank peers[i] and receives into in[i] what that rank sent this rank in the
  // same call. Messages between two ranks arrive in the order sent.
  void exchange(std::span<const int> peers, const std::vector<Bytes>& out,
                std::vector<Bytes>& in) const;

  // The box grid the user asked for (--grid), or empty for the one that cuts the fewest links.
  const std::string& grid_request() const { return m_grid_request; }
  void request_grid(std::string grid) { m_grid_request = std::move(grid); }

 private:
  int m_rank = 0;
  int m_size = 1;
  std::string m_grid_request;
};

}  // namespace angara
