#pragma once
// Collectives on vectors of any length in the designs message-passing libraries use for large
// data (docs/COLLECTIVE_DESIGNS.md): the vector of `count` 64-bit words is cut into segments that
// follow one another down a pipeline, or into one chunk per rank that the ranks pass around a ring
// or between partners. Every node takes part; ranks are node ids; every function is one node's
// part and all nodes call it with the same arguments apart from their data.
//
// `words` holds the node's `count` words (in: its data, out: the result), or nothing on a
// timing-only channel: the messages then have their lengths alone, and what a node sends without
// values at hand comes from the mailbox's blank block. A combine costs the node's CPU a flop a
// word either way.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collectives/software/software_collectives.h"
#include "collectives/software/subnet_collectives.h"
#include "models/core/params.h"
#include "models/cpu/task.h"
#include "models/topology/torus.h"

namespace angara {

// Where chunk i starts when `count` words are cut into `parts` as equal as they can be (chunk i
// is words chunk_start(i) .. chunk_start(i + 1) - 1): the chunks every design here uses, and a
// reduce-scatter's result at rank i.
inline std::size_t chunk_start(std::size_t count, std::size_t parts, std::size_t i) {
  return i * count / parts;
}

// Broadcast by a pipelined chain: the ranks in order from `source` (relative rank r = rank -
// source mod nodes), each taking the vector from r - 1 a segment of `segment_words` at a time and
// passing each segment on to r + 1 as soon as it has it.
Task chain_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                     std::size_t segment_words, std::vector<std::int64_t>& words);

// Broadcast by a pipelined binomial tree: the binomial broadcast's tree of relative ranks (a rank
// takes the vector from the rank its lowest set bit lower and serves the ranks each lower bit
// higher, farthest first), the vector passed down a segment of `segment_words` at a time.
Task pipelined_tree_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                              std::size_t segment_words, std::vector<std::int64_t>& words);

// Broadcast by scatter and ring allgather (van de Geijn): the source's vector cut into a chunk per
// rank, scattered down a binomial tree (each relative rank receives its subtree's chunks), then
// passed around the ring of relative ranks until every rank has them all.
Task scatter_ring_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                            std::vector<std::int64_t>& words);

// Allreduce by a ring: reduce-scatter in nodes - 1 steps (each rank sends one chunk to the next
// rank and combines the one from the previous into its own), after which rank r holds chunk
// r + 1 reduced, then the ring allgather of the reduced chunks.
Task ring_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                    std::vector<std::int64_t>& words);

// Allreduce dimension by dimension on a torus: a ring reduce-scatter along the X rings, then along
// the Y rings on the chunk each node holds, and so on, after which a node holds 1 / nodes of the
// vector reduced over the machine; then ring allgathers in the reverse order. Every message goes
// to a torus neighbour.
Task dimensional_allreduce(Mailbox& mailbox, const Torus& torus, Reduction op, std::size_t count,
                           std::vector<std::int64_t>& words);

// Reduce-scatter: rank r ends with chunk r (of `nodes`, as equal as they can be) of the vector
// reduced over all ranks, in `words`. By a ring (nodes - 1 steps of one chunk each, any number
// of ranks) or by recursive halving (log2 nodes steps; nodes a power of two).
Task ring_reduce_scatter(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                         std::vector<std::int64_t>& words);
Task recursive_halving_reduce_scatter(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                                      std::vector<std::int64_t>& words);

// Allreduce mixed: the ring reduce-scatter by messages, then the subnet's allgather
// (subnet_allgather, on `trees`, `landed` as there) of the reduced chunks, each padded to the
// largest.
Task ring_subnet_allreduce(Mailbox& mailbox, CollectivePort& port, int nodes,
                           std::span<const int> trees, Reduction op, std::size_t count,
                           std::array<std::uint64_t, kMaxTrees>& landed,
                           std::vector<std::int64_t>& words);

// Allgather by a ring: every rank brings a block of `count` words (`words`), and after nodes - 1
// steps, each passing one block on, every rank has all of them in rank order (`words`, nodes x
// count).
Task ring_allgather(Mailbox& mailbox, int nodes, std::size_t count,
                    std::vector<std::int64_t>& words);

// Allreduce by recursive doubling: with P' the largest power of two <= nodes, the ranks P' and
// above first hand their vector to rank - P', the first P' ranks exchange whole vectors with
// partner rank ^ 2^i and combine (log2 P' steps), then the result goes back to the ranks above.
Task recursive_doubling_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                                  std::vector<std::int64_t>& words);

// Allreduce by recursive halving and doubling (Rabenseifner): the ranks above P' fold in as for
// recursive doubling; the first P' ranks reduce-scatter by recursive halving (partners 2^(k-1)
// .. 1 apart exchange halves of what they hold, each keeping and combining one half, until rank
// r holds chunk r of P' reduced), allgather the chunks by recursive doubling, and unfold.
Task rabenseifner_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                            std::vector<std::int64_t>& words);

}  // namespace angara
