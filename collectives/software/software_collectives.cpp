#include "collectives/software/software_collectives.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/core/collective_format.h"
#include "models/node/host.h"

namespace angara {

// --- Mailbox

CpuCore& Mailbox::cpu() {
  return m_channel.host().core();
}

Task Mailbox::send(NodeId dst, std::span<const std::byte> bytes) {
  co_await send_all(m_channel, {dst, m_channel.address().channel}, bytes);
}

Task Mailbox::send(NodeId dst, std::vector<std::span<const std::byte>> pieces) {
  co_await send_all(m_channel, {dst, m_channel.address().channel}, std::move(pieces));
}

void Mailbox::start_receiving(std::size_t bytes, std::vector<std::byte>& out) const {
  out.clear();
  if (m_channel.payload() == Payload::Values) out.reserve(bytes);
}

std::size_t Mailbox::take_aside(NodeId src, std::size_t want, std::vector<std::byte>& out) {
  // What `src` sent is taken from its stream aside, which keeps its order.
  const auto it = m_aside.find(src);
  if (it == m_aside.end()) return 0;
  Aside& a = it->second;
  const std::size_t take = std::min(want, a.size - a.taken);
  if (m_channel.payload() == Payload::Values) {
    const auto from = a.bytes.begin() + static_cast<std::ptrdiff_t>(a.taken);
    out.insert(out.end(), from, from + static_cast<std::ptrdiff_t>(take));
  }
  a.taken += take;
  if (a.taken == a.size) m_aside.erase(it);
  return take;
}

// Every message goes aside first: one path for all senders, and its ring space is released at
// once, whoever it is from.
Task Mailbox::set_aside_next(bool& came) {
  const bool values = m_channel.payload() == Payload::Values;
  auto message = co_await m_channel.recv();
  came = message.has_value();
  if (!came) co_return;
  Aside& a = m_aside[message->from.node];
  if (a.taken > 0 && a.taken * 2 >= a.size) {  // drop the consumed front now and then
    if (values) {
      a.bytes.erase(a.bytes.begin(), a.bytes.begin() + static_cast<std::ptrdiff_t>(a.taken));
    }
    a.size -= a.taken;
    a.taken = 0;
  }
  if (values) {
    a.bytes.resize(a.size + message->bytes);
    message->copy_to(std::span(a.bytes).subspan(a.size));
  }
  a.size += message->bytes;
  co_await m_channel.recv_complete();
}

Task Mailbox::receive_from(NodeId src, std::size_t bytes, std::vector<std::byte>& out) {
  start_receiving(bytes, out);
  for (std::size_t got = 0;;) {
    got += take_aside(src, bytes - got, out);
    if (got == bytes) co_return;
    bool came = false;
    co_await set_aside_next(came);
    if (!came) co_await m_channel.readable();
  }
}

std::span<const std::byte> Mailbox::blank(std::size_t bytes) const {
  if (bytes > m_blank.size()) {
    throw std::logic_error("Mailbox::blank: the blank block is shorter than a send");
  }
  return m_blank.first(bytes);
}

Task Mailbox::exchange(NodeId to_node, std::vector<std::span<const std::byte>> pieces, NodeId from,
                       std::size_t bytes, std::vector<std::byte>& out) {
  start_receiving(bytes, out);
  Unsent unsent(std::move(pieces));
  const NetAddr to{to_node, m_channel.address().channel};
  std::size_t got = take_aside(from, bytes, out);
  while (!unsent.empty() || got < bytes) {
    bool moved = false;
    if (!unsent.empty() && m_channel.has_room(unsent.bytes())) {
      unsent.drop(co_await m_channel.send(to, unsent.iov()));
      moved = true;
    }
    if (got < bytes && m_channel.arrived()) {  // no empty polls: each would cost a call
      bool came = false;
      co_await set_aside_next(came);
      got += take_aside(from, bytes - got, out);
      moved = true;
    }
    if (moved) continue;
    if (unsent.empty()) {
      co_await m_channel.readable();
    } else if (got == bytes) {
      co_await m_channel.room_for(unsent.bytes());
    } else {
      co_await m_channel.readable_or_writable();
    }
  }
}

// --- helpers

std::vector<std::byte> to_bytes(std::span<const std::int64_t> words) {
  std::vector<std::byte> bytes(words.size_bytes());
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<std::int64_t> to_words(std::span<const std::byte> bytes) {
  if (bytes.size() % sizeof(std::int64_t) != 0) {
    throw std::invalid_argument("to_words: not a whole number of 64-bit words");
  }
  std::vector<std::int64_t> words(bytes.size() / sizeof(std::int64_t));
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

namespace {

NodeId parent_of(const Torus& torus, const Tree& tree, NodeId node) {
  return torus.neighbor(node, *tree.rows[node].to_root);
}

// The nodes from `source` up to the root, in that order.
std::vector<NodeId> path_to_root(const Torus& torus, const Tree& tree, NodeId source) {
  std::vector<NodeId> path{source};
  while (path.back() != tree.root) path.push_back(parent_of(torus, tree, path.back()));
  return path;
}

void check_member(const Tree& tree, NodeId node, const char* what) {
  if (node >= tree.rows.size() || !tree.rows[node].member) {
    throw std::invalid_argument(std::string("software tree collective: the ") + what +
                                " is not a member of the tree");
  }
}

}  // namespace

// --- tree algorithms

Task tree_broadcast(Mailbox& mailbox, const Torus& torus, const Tree& tree, NodeId source,
                    std::size_t bytes, std::vector<std::byte>& data) {
  check_member(tree, source, "broadcast source");
  const NodeId me = mailbox.id();
  const TreeRow& row = tree.rows[me];
  if (!row.member) co_return;
  // Up: the nodes between the source and the root pass the data on toward the root; they have it
  // before the way down, and their parent must not send it back to them.
  const std::vector<NodeId> path = path_to_root(torus, tree, source);
  const auto on_path = std::find(path.begin(), path.end(), me);
  NodeId came_from = me;  // the child the data came up from; me: none
  if (on_path != path.end()) {
    if (me != source) {
      came_from = *(on_path - 1);
      co_await mailbox.receive_from(came_from, bytes, data);
    }
    if (me != tree.root) co_await mailbox.send(parent_of(torus, tree, me), data);
  } else {
    co_await mailbox.receive_from(parent_of(torus, tree, me), bytes, data);
  }
  // Down: to every child but the one on the way up.
  for (const Direction d : row.down()) {
    const NodeId child = torus.neighbor(me, d);
    if (child != came_from) co_await mailbox.send(child, data);
  }
}

Task tree_reduce(Mailbox& mailbox, const Torus& torus, const Tree& tree, Reduction op,
                 NodeId destination, std::vector<std::int64_t>& words) {
  const NodeId me = mailbox.id();
  const TreeRow& row = tree.rows[me];
  const std::size_t bytes = words.size() * sizeof(std::int64_t);
  std::vector<std::byte> in;
  if (row.member) {
    // The node's own contribution (none at a transit node), then each child's subtree's.
    std::vector<std::int64_t> acc;
    if (row.pe) acc = words;
    for (const Direction d : row.down()) {
      co_await mailbox.receive_from(torus.neighbor(me, d), bytes, in);
      const std::vector<std::int64_t> theirs = to_words(in);
      if (acc.empty()) {
        acc = theirs;
        continue;
      }
      for (std::size_t i = 0; i < acc.size(); ++i) acc[i] = reduce_word(op, acc[i], theirs[i]);
      co_await mailbox.cpu().compute_flops(static_cast<double>(acc.size()));
    }
    const std::vector<std::byte> out = to_bytes(acc);  // lives across the sends' suspensions
    if (me != tree.root) {
      co_await mailbox.send(parent_of(torus, tree, me), out);
    } else if (destination != me) {
      co_await mailbox.send(destination, out);
    } else {
      words = std::move(acc);
    }
  }
  if (me == destination && me != tree.root) {
    co_await mailbox.receive_from(tree.root, bytes, in);
    words = to_words(in);
  }
}

Task tree_allreduce(Mailbox& mailbox, const Torus& torus, const Tree& tree, Reduction op,
                    std::vector<std::int64_t>& words) {
  if (!tree.rows[mailbox.id()].member) co_return;
  co_await tree_reduce(mailbox, torus, tree, op, tree.root, words);
  std::vector<std::byte> data;
  if (mailbox.id() == tree.root) data = to_bytes(words);
  co_await tree_broadcast(mailbox, torus, tree, tree.root, words.size() * sizeof(std::int64_t),
                          data);
  words = to_words(data);
}

// --- algorithms over all nodes

Task binomial_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t bytes,
                        std::vector<std::byte>& data) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId rel = (mailbox.id() + n - source) % n;  // rank relative to the source
  auto absolute = [&](NodeId r) { return (r + source) % n; };
  // A rank receives from the rank its lowest set bit lower; the source has none.
  NodeId mask = 1;
  while (mask < n) {
    if ((rel & mask) != 0) {
      co_await mailbox.receive_from(absolute(rel - mask), bytes, data);
      break;
    }
    mask <<= 1;
  }
  // Then it serves the ranks that lower bits above it reach, farthest first.
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rel + mask < n) co_await mailbox.send(absolute(rel + mask), data);
  }
}

Task recursive_doubling_allgather(Mailbox& mailbox, int nodes, std::span<const std::byte> block,
                                  std::vector<std::byte>& result) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id();
  const std::size_t b = block.size();
  NodeId p = 1;  // P': the largest power of two <= nodes
  while (p * 2 <= n) p *= 2;
  // Without values, every block is sent as a block of the right length: this rank's own.
  const bool values = mailbox.channel().payload() == Payload::Values;
  result.assign(values ? n * b : 0, std::byte{0});
  if (values) {
    std::copy(block.begin(), block.end(), result.begin() + static_cast<std::ptrdiff_t>(me * b));
  }
  auto block_at = [&](NodeId r) -> std::span<const std::byte> {
    return values ? std::span(result).subspan(r * b, b) : block;
  };
  auto store = [&](const std::vector<std::byte>& in, std::span<const NodeId> ranks) {
    if (!values) return;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(i * b), b,
                  result.begin() + static_cast<std::ptrdiff_t>(ranks[i] * b));
    }
  };
  std::vector<std::byte> in;

  if (me >= p) {  // an extra rank: its block goes to its stand-in, the result comes back
    co_await mailbox.send(me - p, block);
    co_await mailbox.receive_from(me - p, n * b, result);
    co_return;
  }
  if (me + p < n) {  // stand in for rank me + P'
    co_await mailbox.receive_from(me + p, b, in);
    const NodeId extra = me + p;
    store(in, std::span(&extra, 1));
  }
  // The ranks lo .. lo+count-1 of the first P' hold their own blocks and their extra ranks'.
  auto blocks_of = [&](NodeId lo, NodeId count) {
    std::vector<NodeId> blocks;
    for (NodeId r = lo; r < lo + count; ++r) {
      blocks.push_back(r);
      if (r + p < n) blocks.push_back(r + p);
    }
    return blocks;
  };
  // Step by step, partners exchange everything they hold: the sets double.
  for (NodeId mask = 1; mask < p; mask <<= 1) {
    const NodeId partner = me ^ mask;
    std::vector<std::span<const std::byte>> mine;
    for (const NodeId r : blocks_of(me & ~(mask - 1), mask)) mine.push_back(block_at(r));
    const std::vector<NodeId> theirs = blocks_of(partner & ~(mask - 1), mask);
    co_await mailbox.exchange(partner, std::move(mine), theirs.size() * b, in);
    store(in, theirs);
  }
  if (me + p < n) {
    std::vector<std::span<const std::byte>> all;
    for (NodeId r = 0; r < n; ++r) all.push_back(block_at(r));
    co_await mailbox.send(me + p, std::move(all));
  }
}

}  // namespace angara
