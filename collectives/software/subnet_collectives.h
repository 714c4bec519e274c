#pragma once
// Collectives of CPU programs over the hardware subnet (models/node/collective_port.h), beside
// their message-based counterparts in software_collectives.h.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "collectives/subnet/tree.h"
#include "models/cpu/task.h"
#include "models/node/collective_port.h"

namespace angara {

// The tree rank `rank` of `nodes` broadcasts on, of `trees` (ranks in equal contiguous groups,
// group g on trees[g]: with the roots spread evenly, a rank's tree root is nearby).
int allgather_tree(int rank, int nodes, std::span<const int> trees);

// Allgather over the subnet: every rank (node id) broadcasts its block of `block.size()` bytes
// (the same at every rank) on its tree (allgather_tree) into offset rank * stride of every other
// node's collective area (stride: the block rounded up to 16 bytes); out: `result` = all blocks
// in rank order. `landed` carries, per tree, the broadcast packets this node has had land so far
// and is advanced by this call (zero before the first). With a timing-only port, `result` is
// left empty.
Task subnet_allgather(CollectivePort& port, int nodes, std::span<const int> trees,
                      std::span<const std::byte> block,
                      std::array<std::uint64_t, kMaxTrees>& landed, std::vector<std::byte>& result);

// Reduce or allreduce (op.all) of `count` words over the subnet, any number: cut into packets of
// `packet_words` (an even number, at most 32; the last padded with zeros, whose results are
// dropped) dealt to `trees` in turn, packet j the (first[t] + j / T)-th reduce of tree t =
// trees[j % T] (T trees; first[t]: the reduces of tree t before this operation). The nodes that
// get the results (all with op.all, else `destination`) take them as they come: up to `window`
// (collective.reduces_in_flight) per tree are in flight, packet j issued once the result of packet
// j - T window, on the same tree, has been taken (its result slot is then free too). The others
// only contribute, held to the same window by the router's reports of completed reduces. In:
// `words` (empty on a timing-only port: zeros are contributed and the results read and dropped, at
// the same cost); out: the result where it lands.
Task segmented_reduce(CollectivePort& port, std::span<const int> trees, ReduceOp op,
                      NodeId destination, std::span<const std::uint64_t> first, std::size_t count,
                      std::size_t packet_words, std::size_t window,
                      std::vector<std::int64_t>& words);

}  // namespace angara
