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

Task segmented_reduce(CollectivePort& port, std::span<const int> trees, ReduceOp op,
                      NodeId destination, std::span<const std::uint64_t> first, std::size_t count,
                      std::size_t packet_words, std::size_t window,
                      std::vector<std::int64_t>& words) {
  const bool values = port.payload() == Payload::Values;
  const bool lands = op.all || port.host().id() == destination;
  const std::size_t packets = (count + packet_words - 1) / packet_words;
  const std::size_t n = trees.size(), ahead = n * window;
  std::vector<std::int64_t> piece(packet_words);
  for (std::size_t j = 0; j < packets + ahead; ++j) {
    if (lands && j >= ahead) {  // packet j - T window must be done: take its result
      const std::size_t done = j - ahead, at = done * packet_words;
      const int tree = trees[done % n];
      const std::uint64_t k = first[done % n] + done / n;
      co_await wait_results(port, tree, k + 1);
      const auto result = co_await port.result(tree, k, packet_words);
      if (values) {
        std::copy_n(result.begin(), std::min(packet_words, count - at),
                    words.begin() + static_cast<std::ptrdiff_t>(at));
      }
    }
    if (j >= packets) continue;
    const std::size_t at = j * packet_words;
    std::fill(piece.begin(), piece.end(), 0);
    if (values) {
      std::copy_n(words.begin() + static_cast<std::ptrdiff_t>(at),
                  std::min(packet_words, count - at), piece.begin());
    }
    co_await contribute(port, trees[j % n], op, destination, piece);
  }
}

}  // namespace angara
