#include "workloads/synthetic/destinations.h"

#include <bit>
#include <cstdlib>
#include <numeric>
#include <utility>

namespace angara {
namespace {

// Every offset vector whose ring distances add up to 1..`distance` hops: each names a different
// node, the offsets on a ring of k running over (-k/2, k/2].
std::vector<Coords> offsets_within(const Torus& torus, int distance) {
  std::vector<Coords> found;
  Coords o{};
  const auto walk = [&](auto& self, int dim, int hops) -> void {
    if (dim == torus.dims()) {
      if (hops > 0) found.push_back(o);
      return;
    }
    const int k = torus.size(dim);
    for (int v = -(k - 1) / 2; v <= k / 2; ++v) {
      if (hops + std::abs(v) > distance) continue;
      o[dim] = v;
      self(self, dim + 1, hops + std::abs(v));
    }
    o[dim] = 0;
  };
  walk(walk, 0, 0);
  return found;
}

// A random permutation of 0..n-1 with no fixed points: shuffled, then each fixed point swapped
// with its neighbour (which cannot make another).
std::vector<NodeId> derangement(int n, std::uint64_t seed) {
  std::vector<NodeId> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), NodeId{0});
  Rng rng(seed, ~std::uint64_t{0});  // a stream no node's source uses
  for (int i = n - 1; i > 0; --i)
    std::swap(p[i], p[rng.uniform(static_cast<std::uint64_t>(i) + 1)]);
  for (int i = 0; i < n; ++i) {
    if (p[i] == static_cast<NodeId>(i)) std::swap(p[i], p[(i + 1) % n]);
  }
  return p;
}

int tornado_shift(int k) {
  return (k + 1) / 2 - 1;
}
int neighbour_shift(int /*k*/) {
  return 1;
}

}  // namespace

Destinations::Destinations(const Topology& topology, const TrafficParams& params,
                           std::uint64_t seed, const FaultMap& faults)
    : m_topology(topology), m_params(params) {
  const int nodes = topology.node_count();
  if (!faults.failed_nodes().empty()) {
    m_failed.assign(static_cast<std::size_t>(nodes), false);
    for (NodeId n : faults.failed_nodes()) m_failed[n] = true;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      if (!m_failed[n]) m_live.push_back(n);
    }
  }
  m_bits = std::countr_zero(static_cast<unsigned>(nodes));
  if (const Torus* torus = topology.torus()) {
    for (int d = 0; d < torus->dims(); ++d) m_radices.push_back(torus->size(d));
  } else if (const FatTree* tree = topology.fat_tree()) {
    m_radices.assign(static_cast<std::size_t>(tree->levels()), tree->k());
  } else {  // a Cayley graph's nodes: one digit, the number
    m_radices = {nodes};
  }
  if (!params.hotspot_node.empty()) {  // a fat tree's or Cayley graph's node is its number
    m_hot = topology.torus() ? from_digits(params.hotspot_node)
                             : static_cast<NodeId>(params.hotspot_node[0]);
  }
  if (params.pattern == TrafficPattern::Local) {
    if (const Torus* torus = topology.torus()) {
      m_near = offsets_within(*torus, params.local_distance);
    } else {
      m_subtree = 1;
      for (int l = 0; l < params.local_distance; ++l) m_subtree *= m_radices[l];
    }
  }
  if (params.pattern == TrafficPattern::RandomPermutation) m_permutation = derangement(nodes, seed);
}

bool Destinations::sends(NodeId src) const {
  if (m_topology.node_count() < 2) return false;
  if (!m_failed.empty() && (m_failed[src] || m_live.size() < 2)) return false;
  switch (m_params.pattern) {
    case TrafficPattern::Uniform:
    case TrafficPattern::Local:
    case TrafficPattern::Hotspot:
      return true;
    case TrafficPattern::Fft3d:
      return static_cast<int>(src) < m_params.fft_rows * m_params.fft_cols;
    default:
      return mapped(src) != src && !failed(mapped(src));
  }
}

NodeId Destinations::pick(NodeId src, Rng& rng) const {
  constexpr int kRedraws = 64;
  NodeId dst = draw(src, rng);
  for (int i = 0; i < kRedraws && failed(dst); ++i) dst = draw(src, rng);
  while (failed(dst) || dst == src) dst = m_live[rng.uniform(m_live.size())];
  return dst;
}

NodeId Destinations::draw(NodeId src, Rng& rng) const {
  switch (m_params.pattern) {
    case TrafficPattern::Uniform:
      return uniform(src, rng);
    case TrafficPattern::Local:
      return rng.uniform01() < m_params.local_rate ? local(src, rng) : uniform(src, rng);
    case TrafficPattern::Hotspot:
      return src != m_hot && rng.uniform01() < m_params.hotspot_rate ? m_hot : uniform(src, rng);
    case TrafficPattern::Fft3d:
      return fft_peer(src, rng);
    default:
      return mapped(src);
  }
}

NodeId Destinations::uniform(NodeId src, Rng& rng) const {
  auto dst =
      static_cast<NodeId>(rng.uniform(static_cast<std::uint64_t>(m_topology.node_count()) - 1));
  return dst >= src ? dst + 1 : dst;
}

NodeId Destinations::local(NodeId src, Rng& rng) const {
  if (m_subtree > 0) {  // a fat tree: another node of the source's subtree
    const auto first = src / m_subtree * m_subtree;
    auto other = static_cast<NodeId>(rng.uniform(static_cast<std::uint64_t>(m_subtree) - 1));
    if (first + other >= src) ++other;
    return first + other;
  }
  const Coords& offset = m_near[rng.uniform(m_near.size())];
  Digits c = digits(src);
  for (std::size_t d = 0; d < m_radices.size(); ++d) {
    c[d] = (c[d] + offset[d] + m_radices[d]) % m_radices[d];
  }
  return from_digits(std::span(c.data(), m_radices.size()));
}

NodeId Destinations::fft_peer(NodeId src, Rng& rng) const {
  const int cols = m_params.fft_cols;
  const int row = static_cast<int>(src) / cols, col = static_cast<int>(src) % cols;
  if (m_params.fft_phase == 1) {  // the other processes of this row
    int peer = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(cols) - 1));
    if (peer >= col) ++peer;
    return static_cast<NodeId>(row * cols + peer);
  }
  int peer = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(m_params.fft_rows) - 1));
  if (peer >= row) ++peer;
  return static_cast<NodeId>(peer * cols + col);
}

NodeId Destinations::mapped(NodeId src) const {
  const std::uint32_t mask = (std::uint32_t{1} << m_bits) - 1;
  switch (m_params.pattern) {
    case TrafficPattern::Transpose: {
      const int half = m_bits / 2;
      return ((src << half) | (src >> half)) & mask;
    }
    case TrafficPattern::BitComplement:
      return ~src & mask;
    case TrafficPattern::BitReverse: {
      NodeId dst = 0;
      for (int b = 0; b < m_bits; ++b) dst |= ((src >> b) & 1U) << (m_bits - 1 - b);
      return dst;
    }
    case TrafficPattern::Shuffle:
      return ((src << 1) | (src >> (m_bits - 1))) & mask;
    case TrafficPattern::Tornado:
      return per_coordinate(src, tornado_shift);
    case TrafficPattern::Neighbour:
      return per_coordinate(src, neighbour_shift);
    default:  // RandomPermutation
      return m_permutation[src];
  }
}

NodeId Destinations::per_coordinate(NodeId src, int (*shift)(int ring)) const {
  Digits c = digits(src);
  for (std::size_t d = 0; d < m_radices.size(); ++d) {
    c[d] = (c[d] + shift(m_radices[d])) % m_radices[d];
  }
  return from_digits(std::span(c.data(), m_radices.size()));
}

Destinations::Digits Destinations::digits(NodeId node) const {
  Digits c{};
  for (std::size_t d = 0; d < m_radices.size(); ++d) {
    c[d] = static_cast<int>(node % static_cast<NodeId>(m_radices[d]));
    node /= static_cast<NodeId>(m_radices[d]);
  }
  return c;
}

NodeId Destinations::from_digits(std::span<const int> c) const {
  NodeId node = 0;
  for (std::size_t d = c.size(); d-- > 0;) node = node * static_cast<NodeId>(m_radices[d]) + c[d];
  return node;
}

}  // namespace angara
