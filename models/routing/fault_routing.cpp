#include "models/routing/fault_routing.h"

#include <fmt/format.h>

#include <cstdlib>

#include "models/core/config_error.h"
#include "models/core/rng.h"

namespace angara {
namespace {

// One bit per node.
using Row = std::vector<std::uint64_t>;

bool has(const Row& row, NodeId n) {
  return ((row[n / 64] >> (n % 64)) & 1U) != 0;
}

// Whether the direction-order path from `src` to `dst` crosses no failed link or node.
bool intact(const Torus& torus, const DirectionOrderRouting& order, const FaultMap& faults,
            NodeId src, NodeId dst) {
  NodeId here = src;
  std::optional<Direction> by;
  int vc_class = 0;
  while (here != dst) {
    const RouteStep step = order.route(here, dst, by, vc_class);
    const Direction d = Direction::from_index(step.port);
    if (faults.hop_failed(here, d)) return false;
    here = torus.neighbor(here, d);
    by = d;
    vc_class = step.vc_class;
  }
  return true;
}

// The intermediate with the fewest hops in all, ties to the smallest hash.
struct Choice {
  bool found = false;
  NodeId via = 0;
  int hops = 0;
  std::uint64_t tie = 0;
  void offer(NodeId v, int h, std::uint64_t t) {
    if (!found || h < hops || (h == hops && t < tie)) found = true, via = v, hops = h, tie = t;
  }
};

// Calls f(v) for every node v on a minimal path from a to b: per dimension, the coordinates on a
// shortest arc (the whole ring when both ways are as short).
template <typename F>
void for_each_in_box(const Torus& torus, NodeId a, NodeId b, F&& f) {
  const Coords& ca = torus.coords(a);
  Coords first{}, step{}, count{};
  for (int i = 0; i < torus.dims(); ++i) {
    const int k = torus.size(i), offset = torus.ring_offset(ca[i], torus.coords(b)[i], i);
    const bool both_ways = 2 * offset == k;
    first[i] = ca[i];
    step[i] = offset < 0 ? k - 1 : 1;
    count[i] = both_ways ? k : std::abs(offset) + 1;
  }
  Coords at = first, taken{};
  for (;;) {
    f(torus.node(at));
    int i = 0;
    for (; i < torus.dims(); ++i) {
      if (++taken[i] < count[i]) {
        at[i] = (at[i] + step[i]) % torus.size(i);
        break;
      }
      taken[i] = 0;
      at[i] = first[i];
    }
    if (i == torus.dims()) return;
  }
}

}  // namespace

FaultRouting::FaultRouting(const Torus& torus, const DirectionOrderRouting& order, FaultMap faults,
                           std::uint64_t seed)
    : m_faults(std::move(faults)), m_nodes(static_cast<std::uint64_t>(torus.node_count())) {
  const auto n = static_cast<NodeId>(m_nodes);
  const std::size_t words = (m_nodes + 63) / 64;
  // from[s]: the nodes whose path from s is intact; to[d]: those whose path to d is.
  std::vector<Row> from(n, Row(words, 0)), to(n, Row(words, 0));
  for (NodeId s = 0; s < n; ++s) {
    if (m_faults.node_failed(s)) continue;
    for (NodeId d = 0; d < n; ++d) {
      if (m_faults.node_failed(d) || !intact(torus, order, m_faults, s, d)) continue;
      from[s][d / 64] |= std::uint64_t{1} << (d % 64);
      to[d][s / 64] |= std::uint64_t{1} << (s % 64);
    }
  }
  for (NodeId s = 0; s < n; ++s) {
    if (m_faults.node_failed(s)) continue;
    for (NodeId d = 0; d < n; ++d) {
      if (m_faults.node_failed(d) || has(from[s], d)) continue;
      // Fewest hops, ties by a hash: a minimal intermediate lies in the box of shortest arcs, so
      // search it first and all nodes only when it holds none (the same choice either way).
      Choice best;
      const auto consider = [&](NodeId v) {
        if (!has(from[s], v) || !has(to[d], v)) return;
        best.offer(v, torus.min_hops(s, v) + torus.min_hops(v, d),
                   mix64(seed ^ mix64((key(s, d) << 16) ^ v)));
      };
      for_each_in_box(torus, s, d, consider);
      if (!best.found) {
        for (NodeId v = 0; v < n; ++v) consider(v);
      }
      if (!best.found) {
        throw ConfigError(
            "faults", m_faults.describe(torus),
            fmt::format("no route from {} to {}: their direction-order path crosses a failed "
                        "link or node and no intermediate node has both legs intact; fail "
                        "fewer links or nodes",
                        torus.format(s), torus.format(d)));
      }
      m_via.emplace(key(s, d), best.via);
    }
  }
}

}  // namespace angara
