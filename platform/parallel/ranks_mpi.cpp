#include <mpi.h>

#include <stdexcept>

#include "platform/parallel/launch.h"
#include "platform/parallel/ranks.h"

namespace angara {
namespace {

constexpr int kExchangeTag = 7;

bool joined() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int finalized = 0;
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("an MPI message over 2 GiB");
  }
  return static_cast<int>(bytes);
}

// In place, over all ranks.
void all_reduce(std::span<std::uint64_t> values, MPI_Op op) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), count(values.size()), MPI_UINT64_T, op,
                MPI_COMM_WORLD);
}

}  // namespace

Ranks& Ranks::world() {
  static Ranks ranks;
  return ranks;
}

void Ranks::start(int* argc, char*** argv) {
  const Launch launch = launch_of_this_process();
  Ranks& w = world();
  if (launch.mpi) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &w.m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.m_size);
  }
  try {
    refuse_lone_copies(launch, w.m_size, true);
  } catch (...) {
    stop();
    throw;
  }
}

void Ranks::stop() {
  if (joined()) MPI_Finalize();
}

void Ranks::abort(int code) {
  if (world().parallel()) MPI_Abort(MPI_COMM_WORLD, code);
}

void Ranks::sum(std::span<std::uint64_t> values) const {
  if (parallel()) all_reduce(values, MPI_SUM);
}

std::uint64_t Ranks::sum(std::uint64_t value) const {
  sum(std::span<std::uint64_t>(&value, 1));
  return value;
}

void Ranks::max(std::span<std::uint64_t> values) const {
  if (parallel()) all_reduce(values, MPI_MAX);
}

std::uint64_t Ranks::max(std::uint64_t value) const {
  max(std::span<std::uint64_t>(&value, 1));
  return value;
}

void Ranks::min(std::span<std::uint64_t> values) const {
  if (parallel()) all_reduce(values, MPI_MIN);
}

std::uint64_t Ranks::min(std::uint64_t value) const {
  min(std::span<std::uint64_t>(&value, 1));
  return value;
}

std::vector<Bytes> Ranks::gather(const Bytes& bytes) const {
  if (!parallel()) return {bytes};
  int size = count(bytes.size());
  std::vector<int> sizes(root() ? static_cast<std::size_t>(m_size) : 0);
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(sizes.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = count(total);
    total += static_cast<std::size_t>(sizes[r]);
  }
  Bytes all(total);
  MPI_Gatherv(bytes.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  std::vector<Bytes> each;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    each.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
  }
  return each;
}

Bytes Ranks::broadcast(Bytes bytes) const {
  if (!parallel()) return bytes;
  int size = count(bytes.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
  bytes.resize(static_cast<std::size_t>(size));
  MPI_Bcast(bytes.data(), size, MPI_BYTE, 0, MPI_COMM_WORLD);
  return bytes;
}

void Ranks::exchange(std::span<const int> peers, const std::vector<Bytes>& out,
                     std::vector<Bytes>& in) const {
  std::vector<MPI_Request> sends(peers.size());
  for (std::size_t i = 0; i < peers.size(); ++i) {
    MPI_Isend(out[i].data(), count(out[i].size()), MPI_BYTE, peers[i], kExchangeTag, MPI_COMM_WORLD,
              &sends[i]);
  }
  in.resize(peers.size());
  for (std::size_t i = 0; i < peers.size(); ++i) {
    MPI_Status status;
    MPI_Probe(peers[i], kExchangeTag, MPI_COMM_WORLD, &status);
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    in[i].resize(static_cast<std::size_t>(size));
    MPI_Recv(in[i].data(), size, MPI_BYTE, peers[i], kExchangeTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

}  // namespace angara
