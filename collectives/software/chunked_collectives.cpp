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

// Chunks first .. last - 1 of a vector of `count` words cut into `parts` as equal as they can be
// (chunk i is words i count / parts .. (i + 1) count / parts - 1; some are empty when count <
// parts).
Range chunks(std::size_t count, std::size_t parts, std::size_t first, std::size_t last) {
  return {first * count / parts, last * count / parts};
}
Range chunk(std::size_t count, std::size_t parts, std::size_t i) {
  return chunks(count, parts, i, i + 1);
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

// The ring allgather of a vector of `total` words cut into a chunk per rank: in step s relative
// rank `rel` sends chunk rel + first - s to the next rank (`right`) and stores chunk
// rel + first - s - 1 from the previous one (`left`); it starts holding chunk rel + first.
Task ring_pass(Mailbox& mailbox, Vector& v, std::size_t total, NodeId n, NodeId rel, NodeId first,
               NodeId right, NodeId left) {
  std::vector<std::byte> in;
  for (NodeId s = 0; s + 1 < n; ++s) {
    const Range out = chunk(total, n, (rel + first + n - s) % n);
    const Range back = chunk(total, n, (rel + first + 2 * n - s - 1) % n);
    co_await mailbox.exchange(right, v.pieces(out), left, back.bytes(), in);
    v.store(back, in);
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

}  // namespace

Task chain_broadcast(Mailbox& mailbox, int nodes, NodeId source, std::size_t count,
                     std::size_t segment_words, std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id();
  const NodeId rel = (me + n - source) % n;
  Vector v(mailbox, words, count);
  std::vector<std::byte> in;
  for (std::size_t lo = 0; lo < count; lo += segment_words) {
    const Range r{lo, std::min(count, lo + segment_words)};
    if (rel > 0) {
      co_await mailbox.receive_from((me + n - 1) % n, r.bytes(), in);
      v.store(r, in);
    }
    if (rel + 1 < n) co_await v.send((me + 1) % n, r);
  }
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
  co_await ring_pass(mailbox, v, count, n, rel, 0, absolute(rel + 1), absolute(rel + n - 1));
}

Task ring_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                    std::vector<std::int64_t>& words) {
  const auto n = static_cast<NodeId>(nodes);
  const NodeId me = mailbox.id();
  const NodeId right = (me + 1) % n, left = (me + n - 1) % n;
  Vector v(mailbox, words, count);
  std::vector<std::byte> in;
  for (NodeId s = 0; s + 1 < n; ++s) {  // reduce-scatter
    const Range out = chunk(count, n, (me + n - s) % n);
    const Range back = chunk(count, n, (me + 2 * n - s - 1) % n);
    co_await mailbox.exchange(right, v.pieces(out), left, back.bytes(), in);
    co_await v.combine(op, back, in);
  }
  co_await ring_pass(mailbox, v, count, n, me, 1, right, left);
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
  co_await ring_pass(mailbox, v, n * count, n, me, 0, (me + 1) % n, (me + n - 1) % n);
}

namespace {

// Both allreduces among the first P' ranks, with the ranks above folded in: by exchanges of the
// whole vector (recursive doubling), or by recursive halving then doubling (Rabenseifner).
Task power_of_two_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                            std::vector<std::int64_t>& words, bool halving) {
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
  for (NodeId width = 1; halving && width < p; width *= 2) {
    const NodeId partner = me ^ width;
    const NodeId mine = me & ~(width - 1), theirs = partner & ~(width - 1);
    const Range back = chunks(count, p, theirs, theirs + width);
    co_await mailbox.exchange(partner, v.pieces(chunks(count, p, mine, mine + width)), back.bytes(),
                              in);
    v.store(back, in);
  }
  co_await unfold(mailbox, v, n, p, all);
}

}  // namespace

Task recursive_doubling_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                                  std::vector<std::int64_t>& words) {
  co_await power_of_two_allreduce(mailbox, nodes, op, count, words, false);
}

Task rabenseifner_allreduce(Mailbox& mailbox, int nodes, Reduction op, std::size_t count,
                            std::vector<std::int64_t>& words) {
  co_await power_of_two_allreduce(mailbox, nodes, op, count, words, true);
}

}  // namespace angara
