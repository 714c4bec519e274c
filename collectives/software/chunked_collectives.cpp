#include "collectives/software/chunked_collectives.h"

#include <algorithm>
#include <cstring>

#include "models/core/collective_format.h"

namespace angara {
namespace {

// Words lo .. hi - 1 of a vector.
struct Range {
  std::size_t lo = 0, hi = 0;
  std::size_t size() const { return hi - lo; }
  std::size_t bytes() const { return size() * sizeof(std::int64_t); }
};

// Chunks first .. last - 1 of words `r` cut into `parts` as equal as they can be (chunk i is
// words r.lo + i |r| / parts .. r.lo + (i + 1) |r| / parts - 1; some are empty when |r| < parts).
Range chunks(Range r, std::size_t parts, std::size_t first, std::size_t last) {
  return {r.lo + chunk_start(r.size(), parts, first), r.lo + chunk_start(r.size(), parts, last)};
}
Range chunk(Range r, std::size_t parts, std::size_t i) {
  return chunks(r, parts, i, i + 1);
}
Range chunks(std::size_t count, std::size_t parts, std::size_t first, std::size_t last) {
  return chunks(Range{0, count}, parts, first, last);
}

// A ring of n nodes: this node's place in it, and the nodes after and before it.
struct Ring {
  NodeId n = 1, at = 0, right = 0, left = 0;
};

// Nodes 0 .. n - 1 in order, from `first` (relative rank 0).
Ring ring_of_all(NodeId n, NodeId me, NodeId first) {
  return {n, (me + n - first) % n, (me + 1) % n, (me + n - 1) % n};
}

// The ring of the torus along dimension `dim` through `me`.
Ring ring_along(const Torus& torus, NodeId me, int dim) {
  return {static_cast<NodeId>(torus.size(dim)), static_cast<NodeId>(torus.coords(me)[dim]),
          torus.neighbor(me, Direction{dim, false}), torus.neighbor(me, Direction{dim, true})};
}

NodeId power_of_two_below(NodeId n) {  // the largest power of two <= n
  NodeId p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// One node's vector in an operation: its values, or none on a timing-only channel.
class Vector {
 public:
  Vector(Mailbox& mailbox, std::vector<std::int64_t>& words, std::size_t count)
      : m_mailbox(mailbox), m_words(words) {
    if (mailbox.values()) m_words.resize(count);
  }

  // What a send of words r carries; none for no words.
  std::vector<std::span<const std::byte>> pieces(Range r) const {
    if (r.size() == 0) return {};
    if (!m_mailbox.values()) return {m_mailbox.blank(r.bytes())};
    return {std::as_bytes(std::span(m_words).subspan(r.lo, r.size()))};
  }
  Task send(NodeId to, Range r) const {
    if (r.size() > 0) co_await m_mailbox.send(to, pieces(r));
  }
  // Received bytes `in` as words r.
  void store(Range r, const std::vector<std::byte>& in) {
    if (m_mailbox.values() && r.size() > 0) std::memcpy(&m_words[r.lo], in.data(), r.bytes());
  }
  // Received bytes `in` combined into words r, a flop a word.
  Task combine(Reduction op, Range r, const std::vector<std::byte>& in) {
    if (r.size() == 0) co_return;
    if (m_mailbox.values()) {
      for (std::size_t i = 0; i < r.size(); ++i) {
        std::int64_t theirs = 0;
        std::memcpy(&theirs, &in[i * sizeof theirs], sizeof theirs);
        m_words[r.lo + i] = reduce_word(op, m_words[r.lo + i], theirs);
      }
    }
    co_await m_mailbox.cpu().compute_flops(static_cast<double>(r.size()));
  }

 private:
  Mailbox& m_mailbox;
  std::vector<std::int64_t>& m_words;
};

// The steps 0 .. n - 2 of a pass around a ring of n in which a node that sends chunk k - s and
// receives chunk k - s - 1 (mod n) in step s moves any words of `r`: all of them, unless `r` has
// fewer words than the ring has nodes. Then most chunks are empty and most steps nothing to the
// node (an exchange of nothing takes no time): skipping them keeps a small vector on a large ring
// from costing the simulation nodes^2 steps.
std::vector<NodeId> busy_steps(Range r, NodeId n, NodeId k) {
  std::vector<NodeId> steps;
  if (r.size() >= n) {
    for (NodeId s = 0; s + 1 < n; ++s) steps.push_back(s);
    return steps;
  }
  for (std::size_t w = 1; w <= r.size(); ++w) {  // chunk i holds word w - 1 alone
    const auto i = static_cast<NodeId>((w * n + r.size() - 1) / r.size() - 1);
    for (NodeId s : {(k + n - i) % n, (k + 2 * n - 1 - i) % n}) {
      if (s + 1 < n) steps.push_back(s);
    }
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

// The ring allgather of words `r` cut into a chunk per node of `ring`: in step s the node at
// place a sends chunk a + first - s to the next node and stores chunk a + first - s - 1 from the
// previous one; it starts holding chunk a + first.
Task ring_pass(Mailbox& mailbox, Vector& v, Range r, const Ring& ring, NodeId first) {
  const NodeId n = ring.n;
  std::vector<std::byte> in;
  for (NodeId s : busy_steps(r, n, (ring.at + first) % n)) {
    const Range out = chunk(r, n, (ring.at + first + n - s) % n);
    const Range back = chunk(r, n, (ring.at + first + 2 * n - s - 1) % n);
    co_await mailbox.exchange(ring.right, v.pieces(out), ring.left, back.bytes(), in);
    v.store(back, in);
  }
}

// The ring reduce-scatter of words `r`: in step s the node at place a sends chunk a + last - 1 - s
// on and combines chunk a + last - 2 - s from the previous node into its own; at the end it holds
// chunk a + last reduced over the ring (ring_pass with first = last then gathers them).
Task ring_reduce_scatter(Mailbox& mailbox, Vector& v, Reduction op, Range r, const Ring& ring,
                         NodeId last) {
  const NodeId n = ring.n;
  std::vector<std::byte> in;
  for (NodeId s : busy_steps(r, n, (ring.at + last + n - 1) % n)) {
    const Range out = chunk(r, n, (ring.at + last + 2 * n - 1 - s) % n);
    const Range back = chunk(r, n, (ring.at + last + 2 * n - 2 - s) % n);
    co_await mailbox.exchange(ring.right, v.pieces(out), ring.left, back.bytes(), in);
    co_await v.combine(op, back, in);
  }
}

// A rank P' or above (`extra`) hands its vector to rank - P' and takes the result back from it;
// below P', rank r stands in for r + P' (if there is one): fold_in() combines its vector first,
// unfold() hands it the result last.
Task extra_rank(Mailbox& mailbox, Vector& v, NodeId p, Range all) {
  std::vector<std::byte> in;
  co_await v.send(mailbox.id() - p, all);
  co_await mailbox.receive_from(mailbox.id() - p, all.bytes(), in);
  v.store(all, in);
}
Task fold_in(Mailbox& mailbox, Vector& v, Reduction op, NodeId n, NodeId p, Range all) {
  if (mailbox.id() + p >= n) co_return;
  std::vector<std::byte> in;
  co_await mailbox.receive_from(mailbox.id() + p, all.bytes(), in);
  co_await v.combine(op, all, in);
}
Task unfold(Mailbox& mailbox, const Vector& v, NodeId n, NodeId p, Range all) {
  if (mailbox.id() + p < n) co_await v.send(mailbox.id() + p, all);
}

// A pipelined broadcast down a tree: a segment of `segment_words` at a time, the node takes it from
// its parent (unless it is the source) and passes it on to each child as soon as it has it.
Task pipeline(Mailbox& mailbox, Vector& v, std::size_t count, std::size_t segment_words,
              bool has_parent, NodeId parent, const std::vector<NodeId>& children) {
  std::vector<std::byte> in;
  for (std::size_t lo = 0; lo < count; lo += segment_words) {
    const Range r{lo, std::min(count, lo + segment_words)};
    if (has_parent) {
      co_await mailbox.receive_from(parent, r.bytes(), in);
      v.store(r, in);
    }
    for (const NodeId child : children) co_await v.send(child, r);
  }
}

}  // namespace

Task chain_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                     std::size_t segment_words, std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id(), rel = (me + n - source) % n;
  std::vector<NodeId> next;
  if (rel + 1 < n) next.push_back((me + 1) % n);
  Vector v(mailbox, words, count);
  co_await pipeline(mailbox, v, count, segment_words, rel > 0, (me + n - 1) % n, next);
}

Task pipelined_tree_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                              std::size_t segment_words, std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId rel = (mailbox.id() + n - source) % n;
  const auto absolute = [&](NodeId r) { return (r + source) % n; };
  NodeId low = 1;  // rel's lowest set bit; the source: the first power of two >= n
  while (low < n && (rel & low) == 0) low <<= 1;
  std::vector<NodeId> children;  // farthest first, as the binomial broadcast
  for (NodeId m = low / 2; m > 0; m /= 2) {
    if (rel + m < n) children.push_back(absolute(rel + m));
  }
  Vector v(mailbox, words, count);
  co_await pipeline(mailbox, v, count, segment_words, rel > 0, absolute(rel - low), children);
}

Task scatter_ring_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                            std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId rel = (mailbox.id() + n - source) % n;
  const auto absolute = [&](NodeId r) { return (r + source) % n; };
  Vector v(mailbox, words, count);
  std::vector<std::byte> in;
  // Scatter: relative rank r takes its subtree's chunks r .. r + b - 1 (b its lowest set bit)
  // from r - b; the source has them all. Then it serves the ranks r + m for m = b/2 .. 1.
  NodeId mask = 1;
  while (mask < n) {
    if ((rel & mask) != 0) {
      const Range r = chunks(count, n, rel, std::min(rel + mask, n));
      co_await mailbox.receive_from(absolute(rel - mask), r.bytes(), in);
      v.store(r, in);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rel + mask < n) {
      co_await v.send(absolute(rel + mask),
                      chunks(count, n, rel + mask, std::min(rel + 2 * mask, n)));
    }
  }
  co_await ring_pass(mailbox, v, Range{0, count}, ring_of_all(n, mailbox.id(), source), 0);
}

Task ring_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                    std::vector<std::int64_t>& words) {
  const Ring ring = ring_of_all(static_cast<NodeId>(nodes), mailbox.id(), 0);
  Vector v(mailbox, words, count);
  co_await ring_reduce_scatter(mailbox, v, op, Range{0, count}, ring, 1);
  co_await ring_pass(mailbox, v, Range{0, count}, ring, 1);
}

Task dimensional_allreduce(Mailbox& mailbox, const Torus& torus, Reduction op, std::size_t count,
                           std::vector<std::int64_t>& words) {
  Vector v(mailbox, words, count);
  std::vector<std::pair<Ring, Range>> stages;  // each dimension's ring and the words it reduced
  Range r{0, count};
  for (int dim = 0; dim < torus.dims(); ++dim) {
    const Ring ring = ring_along(torus, mailbox.id(), dim);
    co_await ring_reduce_scatter(mailbox, v, op, r, ring, 1);
    stages.emplace_back(ring, r);
    r = chunk(r, ring.n, (ring.at + 1) % ring.n);
  }
  for (auto stage = stages.rbegin(); stage != stages.rend(); ++stage) {
    co_await ring_pass(mailbox, v, stage->second, stage->first, 1);
  }
}

Task ring_allgather(Mailbox& mailbox, int nodes, std::size_t count,
                    std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id();
  if (mailbox.values()) {  // its own block in its place among all
    std::vector<std::int64_t> all(n * count);
    std::copy(words.begin(), words.end(), all.begin() + static_cast<std::ptrdiff_t>(me * count));
    words = std::move(all);
  }
  Vector v(mailbox, words, n * count);
  co_await ring_pass(mailbox, v, Range{0, n * count}, ring_of_all(n, me, 0), 0);
}

namespace {

// The exchanges among the first P' ranks, with the ranks above folded in: of the whole vector
// (recursive doubling), or recursive halving then doubling (Rabenseifner), or recursive halving
// alone (a reduce-scatter: rank r ends holding chunk r of P' reduced; no ranks above P').
enum class Exchanges { Doubling, HalvingDoubling, Halving };
Task power_of_two_exchanges(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                            std::vector<std::int64_t>& words, Exchanges how) {
  const bool halving = how != Exchanges::Doubling;
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id(), p = power_of_two_below(n);
  const Range all{0, count};
  Vector v(mailbox, words, count);
  if (me >= p) {
    co_await extra_rank(mailbox, v, p, all);
    co_return;
  }
  co_await fold_in(mailbox, v, op, n, p, all);
  std::vector<std::byte> in;
  for (NodeId mask = 1; !halving && mask < p; mask <<= 1) {
    co_await mailbox.exchange(me ^ mask, v.pieces(all), all.bytes(), in);
    co_await v.combine(op, all, in);
  }
  // Recursive halving: rank me holds chunks lo .. hi - 1 (of P'), partners `half` apart split
  // them, the one with that bit clear keeping the lower half; at the end lo = me.
  NodeId lo = 0, hi = p;
  for (NodeId half = p / 2; halving && half > 0; half /= 2) {
    const NodeId mid = lo + half;
    const bool lower = (me & half) == 0;
    const Range keep = lower ? chunks(count, p, lo, mid) : chunks(count, p, mid, hi);
    const Range give = lower ? chunks(count, p, mid, hi) : chunks(count, p, lo, mid);
    co_await mailbox.exchange(me ^ half, v.pieces(give), keep.bytes(), in);
    co_await v.combine(op, keep, in);
    (lower ? hi : lo) = mid;
  }
  // Recursive doubling of the chunks: partners `width` apart exchange the `width` each holds.
  for (NodeId width = 1; how == Exchanges::HalvingDoubling && width < p; width *= 2) {
    const NodeId partner = me ^ width;
    const NodeId mine = me & ~(width - 1), theirs = partner & ~(width - 1);
    const Range back = chunks(count, p, theirs, theirs + width);
    co_await mailbox.exchange(partner, v.pieces(chunks(count, p, mine, mine + width)), back.bytes(),
                              in);
    v.store(back, in);
  }
  co_await unfold(mailbox, v, n, p, all);
}

// Words `r` alone of the vector (a reduce-scatter's own chunk), where values are carried.
void keep_only(Mailbox& mailbox, std::vector<std::int64_t>& words, Range r) {
  if (!mailbox.values()) return;
  words = std::vector<std::int64_t>(words.begin() + static_cast<std::ptrdiff_t>(r.lo),
                                    words.begin() + static_cast<std::ptrdiff_t>(r.hi));
}

}  // namespace

Task ring_reduce_scatter(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                         std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const Ring ring = ring_of_all(n, mailbox.id(), 0);
  Vector v(mailbox, words, count);
  co_await ring_reduce_scatter(mailbox, v, op, Range{0, count}, ring, 0);
  keep_only(mailbox, words, chunk(Range{0, count}, n, mailbox.id()));
}

Task ring_subnet_allreduce(Mailbox& mailbox, CollectivePort& port, int nodes,
                           std::span<const int> trees, Reduction op, std::size_t count,
                           std::array<std::uint64_t, kMaxTrees>& landed,
                           std::vector<std::int64_t>& words) {
  const auto n = static_cast<std::size_t>(nodes);
  co_await ring_reduce_scatter(mailbox, nodes, op, count, words);
  const std::size_t block = (count + n - 1) / n * sizeof(std::int64_t);  // the largest chunk
  std::vector<std::byte> mine(block);
  if (mailbox.values()) std::memcpy(mine.data(), words.data(), words.size() * sizeof(std::int64_t));
  std::vector<std::byte> all;
  co_await subnet_allgather(port, nodes, trees, mine, landed, all);
  if (!mailbox.values()) co_return;
  words.clear();
  for (std::size_t r = 0; r < n; ++r) {
    const auto from = reinterpret_cast<const std::int64_t*>(all.data() + r * block);
    words.insert(words.end(), from, from + chunk(Range{0, count}, n, r).size());
  }
}

Task recursive_halving_reduce_scatter(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                                      std::vector<std::int64_t>& words) {
  co_await power_of_two_exchanges(mailbox, nodes, op, count, words, Exchanges::Halving);
  keep_only(mailbox, words, chunk(Range{0, count}, static_cast<std::size_t>(nodes), mailbox.id()));
}

Task recursive_doubling_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                                  std::vector<std::int64_t>& words) {
  co_await power_of_two_exchanges(mailbox, nodes, op, count, words, Exchanges::Doubling);
}

Task rabenseifner_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                            std::vector<std::int64_t>& words) {
  co_await power_of_two_exchanges(mailbox, nodes, op, count, words, Exchanges::HalvingDoubling);
}

}  // namespace angara
