#include "models/routing/fault_routing.h"

#include <fmt/format.h>

#include <bit>

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
      NodeId best = d;
      int best_hops = 0;
      std::uint64_t best_tie = 0;
      for (std::size_t w = 0; w < words; ++w) {
        for (std::uint64_t bits = from[s][w] & to[d][w]; bits; bits &= bits - 1) {
          const auto v = static_cast<NodeId>(w * 64 + std::countr_zero(bits));
          const int hops = torus.min_hops(s, v) + torus.min_hops(v, d);
          const std::uint64_t tie = mix64(seed ^ mix64((key(s, d) << 16) ^ v));
          if (best == d || hops < best_hops || (hops == best_hops && tie < best_tie)) {
            best = v, best_hops = hops, best_tie = tie;
          }
        }
      }
      if (best == d) {
        throw ConfigError(
            "faults", m_faults.describe(torus),
            fmt::format("no route from {} to {}: their direction-order path crosses a failed "
                        "link or node and no intermediate node has both legs intact; fail "
                        "fewer links or nodes",
                        torus.format(s), torus.format(d)));
      }
      m_via.emplace(key(s, d), best);
    }
  }
}

}  // namespace angara
