#pragma once
// Software collectives: broadcast, reduce, allreduce and allgather done by the nodes' CPU
// programs with messages (models/node/message_channel.h), to compare with the hardware
// collective subnet. Ranks are node ids. Every function is one node's part of the operation and
// is co_awaited by that node's program; all nodes call it with the same arguments apart from
// their own data.
//
// The tree algorithms follow the same tree as the hardware (a collectives/subnet/tree.h Tree), but
// every tree hop is a message: ejected to the host, handled by the CPU, injected again. Transit
// nodes (members without pe) forward like any member; they only bring no data of their own.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "collectives/subnet/tree.h"
#include "models/core/params.h"
#include "models/cpu/task.h"
#include "models/node/message_channel.h"
#include "models/topology/torus.h"

namespace angara {

// One node's receiving side over one MessageChannel, by sender: the message API hands out
// messages in arrival order from any sender, while an algorithm wants "the next n bytes from
// node s". What arrives from other senders meanwhile is copied aside (its ring space released at
// once, so it never blocks the ring) and handed out later, in each sender's own order. Every node
// uses the same channel number, so a peer's address is {node, channel}.
class Mailbox {
 public:
  // `blank`: what a send carries on a timing-only channel when its values are not at hand (as
  // long as the longest such send; its bytes are not read).
  explicit Mailbox(MessageChannel& channel, std::span<const std::byte> blank = {})
      : m_channel(channel), m_blank(blank) {}

  NodeId id() const { return m_channel.address().node; }
  MessageChannel& channel() { return m_channel; }
  CpuCore& cpu();

  // Sends `bytes` to node `dst` (several messages if longer than one send takes).
  Task send(NodeId dst, std::span<const std::byte> bytes);
  // The same from pieces gathered in order, without copying them first.
  Task send(NodeId dst, std::vector<std::span<const std::byte>> pieces);
  // The next exactly `bytes` bytes from node `src` into `out` (resized), gathered from as many
  // messages as they came in. On a timing-only channel, `out` is left empty.
  Task receive_from(NodeId src, std::size_t bytes, std::vector<std::byte>& out);
  // Sends `pieces` to `peer` while receiving the next `bytes` bytes from it into `out`, a message
  // of either whenever one can go or has come (MPI_Sendrecv): partners that exchange more than
  // their buffers hold must not send everything before receiving.
  Task exchange(NodeId peer, std::vector<std::span<const std::byte>> pieces, std::size_t bytes,
                std::vector<std::byte>& out) {
    return exchange(peer, std::move(pieces), peer, bytes, out);
  }
  // The same with two peers: sends to `to` while receiving from `from` (a ring's step).
  Task exchange(NodeId to, std::vector<std::span<const std::byte>> pieces, NodeId from,
                std::size_t bytes, std::vector<std::byte>& out);
  // Whether messages carry values (else their lengths alone: a timing-only channel).
  bool values() const { return m_channel.payload() == Payload::Values; }
  // What a send of `bytes` carries when the values are not at hand: the first `bytes` of blank.
  std::span<const std::byte> blank(std::size_t bytes) const;

 private:
  // Bytes from one sender that arrived before anyone asked for them.
  struct Aside {
    std::vector<std::byte> bytes;  // their values (none on a timing-only channel)
    std::size_t size = 0;
    std::size_t taken = 0;  // consumed from the front
  };

  // Moves up to `want` bytes that `src` sent from its aside to `out`; returns how many.
  std::size_t take_aside(NodeId src, std::size_t want, std::vector<std::byte>& out);
  // Sets the next received message aside and releases its ring space; `came`: one had arrived.
  Task set_aside_next(bool& came);
  void start_receiving(std::size_t bytes, std::vector<std::byte>& out) const;

  MessageChannel& m_channel;
  std::span<const std::byte> m_blank;
  std::map<NodeId, Aside> m_aside;
};

// --- Tree algorithms, along the hardware's tree. A node outside the tree returns at once (except
// a reduce destination outside the tree, which receives the result from the root).

// Broadcast of `bytes` bytes from `source` (a member) to every member. In: `data` at the source;
// out: `data` at every member. A source other than the root first sends the data up, hop by hop, to
// the root; the way down then skips the branch it came up (those nodes have it already).
Task tree_broadcast(Mailbox& mailbox, const Torus& torus, const Tree& tree, NodeId source,
                    std::size_t bytes, std::vector<std::byte>& data);

// Reduce of the pe members' `words` (word by word as int64, `op` as the hardware does it) to
// `destination`. In: `words` at every node, all of one length (a transit node's values are
// ignored, but their number tells it how much to expect); out: the result in `words` at the
// destination. Children's contributions are combined with the node's own and sent to the parent;
// the root sends the result point-to-point to the destination if that is another node.
Task tree_reduce(Mailbox& mailbox, const Torus& torus, const Tree& tree, Reduction op,
                 NodeId destination, std::vector<std::int64_t>& words);

// Reduce to the root, then broadcast of the result down the tree: out: the result in `words` at
// every member.
Task tree_allreduce(Mailbox& mailbox, const Torus& torus, const Tree& tree, Reduction op,
                    std::vector<std::int64_t>& words);

// --- Algorithms over all `nodes` nodes, ranks = node ids.

// Binomial-tree broadcast of `bytes` bytes from `source` (in: `data` there; out: `data` at every
// rank): in step i the ranks that have the data (relative to the source, 0 .. 2^i - 1) send it
// 2^i ranks further on; ceil(log2(nodes)) steps.
Task binomial_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t bytes,
                        std::vector<std::byte>& data);

// Allgather by recursive doubling: every rank brings a block of `block` bytes; out: `result`
// = all blocks in rank order at every rank. With P' the largest power of two <= nodes, the ranks
// P' and above first hand their block to rank - P', the first P' ranks exchange doubling sets
// of blocks with partner rank ^ 2^i (log2 P' steps), then send the whole result back to the
// ranks above P'. On a timing-only channel the blocks are sent by length and `result` is left
// empty.
Task recursive_doubling_allgather(Mailbox& mailbox, int nodes, std::span<const std::byte> block,
                                  std::vector<std::byte>& result);

// Words as bytes and back (host byte order: both ends are the same simulator).
std::vector<std::byte> to_bytes(std::span<const std::int64_t> words);
std::vector<std::int64_t> to_words(std::span<const std::byte> bytes);

}  // namespace angara
