// Ranks in a build without MPI: every process is the one rank of its run.
#include "platform/parallel/launch.h"
#include "platform/parallel/ranks.h"

namespace angara {

Ranks& Ranks::world() {
  static Ranks ranks;
  return ranks;
}

void Ranks::start(int* /*argc*/, char*** /*argv*/) {
  refuse_lone_copies(launch_of_this_process(), 1, false);
}

void Ranks::stop() {}
void Ranks::abort(int /*code*/) {}
void Ranks::sum(std::span<std::uint64_t> /*values*/) const {}
std::uint64_t Ranks::sum(std::uint64_t value) const {
  return value;
}
void Ranks::max(std::span<std::uint64_t> /*values*/) const {}
std::uint64_t Ranks::max(std::uint64_t value) const {
  return value;
}
void Ranks::min(std::span<std::uint64_t> /*values*/) const {}
std::uint64_t Ranks::min(std::uint64_t value) const {
  return value;
}
std::vector<Bytes> Ranks::gather(const Bytes& bytes) const {
  return {bytes};
}
Bytes Ranks::broadcast(Bytes bytes) const {
  return bytes;
}

void Ranks::exchange(std::span<const int> peers, const std::vector<Bytes>& /*out*/,
                     std::vector<Bytes>& in) const {
  in.assign(peers.size(), {});
}

}  // namespace angara
