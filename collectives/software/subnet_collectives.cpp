#include "collectives/software/subnet_collectives.h"

#include <algorithm>
#include <cstring>

#include "models/node/host.h"

namespace angara {

int allgather_tree(int rank, int nodes, std::span<const int> trees) {
  return trees[static_cast<std::size_t>(std::int64_t{rank} * std::ssize(trees) / nodes)];
}

Task subnet_allgather(CollectivePort& port, int nodes, std::span<const int> trees,
                      std::span<const std::byte> block,
                      std::array<std::uint64_t, kMaxTrees>& landed,
                      std::vector<std::byte>& result) {
  const int me = static_cast<int>(port.host().id());
  const std::size_t stride = (block.size() + 15) / 16 * 16;
  const std::uint64_t packets = (block.size() + 255) / 256;
  for (int rank = 0; rank < nodes; ++rank) {
    if (rank != me) landed[allgather_tree(rank, nodes, trees)] += packets;
  }
  co_await broadcast_all(port, allgather_tree(me, nodes, trees), me * stride, block);
  for (int tree : trees) co_await wait_broadcasts(port, tree, landed[tree]);
  result.clear();
  if (port.payload() == Payload::TimingOnly) co_return;  // the counts say all have landed
  result.resize(block.size() * nodes);
  for (int rank = 0; rank < nodes; ++rank) {
    const auto piece = rank == me ? block : port.area(rank * stride, block.size());
    std::memcpy(result.data() + rank * block.size(), piece.data(), block.size());
  }
}

}  // namespace angara
