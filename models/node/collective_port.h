#pragma once
// CollectivePort: a CPU program's way into the hardware collective subnet, as
// one-sided asynchronous operations through the node's PCIe endpoint:
//   broadcast(tree, offset, bytes)  sends a prefix of `bytes` (at most node.max_message_bytes and
//                                   what the send buffer has room for, possibly 0) down `tree`;
//                                   it lands at `offset` (a multiple of 16) in the collective area
//                                   of every other processor of the tree, without their programs
//                                   taking part. Returns how many bytes it took.
//   reduce(tree, op, dst, words)    this processor's contribution (at most 32 words) to the next
//                                   reduce of `tree`: the result goes to node `dst`, or with
//                                   op.all to every processor of the tree (allreduce).
//   broadcasts(tree), results(tree) how many broadcast packets / reduce results of `tree` have
//                                   landed in host memory (reading memory: no call cost);
//   arrival(tree, results)          waits for the next one to land (may wake early: look again).
// Every processor of a tree issues its reduces on it in the same order; the k-th (from 0) finds
// its result in slot k % 16 (result()). Each call costs node.send_overhead_ns of library time
// plus the PCIe stores; taking a result costs node.recv_overhead_ns.

#include <cstdint>
#include <span>
#include <vector>

#include "models/core/collective_format.h"
#include "models/node/message_channel.h"

namespace angara {

class CollectivePort {
 public:
  // With Payload::TimingOnly, broadcasts are timed but their values not landed (the counts are).
  explicit CollectivePort(Host& host, Payload payload = Payload::Values);

  Host& host() const { return m_host; }
  Payload payload() const { return m_payload; }
  Timed<std::size_t> broadcast(int tree, std::uint64_t offset, std::span<const std::byte> bytes);
  Timed<bool> reduce(int tree, ReduceOp op, NodeId destination,
                     std::span<const std::int64_t> words);
  std::uint64_t broadcasts(int tree);
  std::uint64_t results(int tree);
  CpuCore::SignalAwaiter arrival(int tree, bool results);
  // Bytes of the collective area, as they are now.
  std::span<const std::byte> area(std::uint64_t offset, std::size_t bytes);
  // The `k`-th reduce of `tree`'s result, `words` long, once it has landed; costs the receive
  // library time.
  Timed<std::vector<std::int64_t>> result(int tree, std::uint64_t k, std::size_t words);

 private:
  std::string where() const;

  Host& m_host;
  Payload m_payload;
};

// Broadcasts all of `bytes` on `tree` to `offset`, as many sends as it takes.
Task broadcast_all(CollectivePort& port, int tree, std::uint64_t offset,
                   std::span<const std::byte> bytes);
// Waits until at least `count` broadcast packets / reduce results of `tree` have landed.
Task wait_broadcasts(CollectivePort& port, int tree, std::uint64_t count);
Task wait_results(CollectivePort& port, int tree, std::uint64_t count);
// This processor's contribution to the next reduce of `tree`, once the send buffer has room.
Task contribute(CollectivePort& port, int tree, ReduceOp op, NodeId destination,
                std::span<const std::int64_t> words);
// The hardware allreduce of `words` (in: this processor's, out: the result) as the `k`-th reduce
// of `tree`: contribution, then the wait for the result.
Task hardware_allreduce(CollectivePort& port, int tree, Reduction op, std::uint64_t k,
                        std::vector<std::int64_t>& words);

}  // namespace angara
