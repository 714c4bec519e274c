#include "models/topology/faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/core/rng.h"

namespace angara {
namespace {

// The first `count` of 0 .. n-1 in a seeded shuffle (a stream no traffic source uses), sorted.
std::vector<std::uint32_t> draw(std::uint32_t n, double share, std::uint64_t seed,
                                std::uint64_t stream) {
  const auto count = static_cast<std::uint32_t>(std::llround(share * n));
  std::vector<std::uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0U);
  Rng rng(seed, stream);
  for (std::uint32_t i = 0; i < count; ++i) std::swap(all[i], all[i + rng.uniform(n - i)]);
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

constexpr std::uint64_t kLinkStream = ~std::uint64_t{1};
constexpr std::uint64_t kNodeStream = ~std::uint64_t{2};

}  // namespace

FaultMap::FaultMap(const Torus& torus, const FaultParams& params, std::uint64_t seed)
    : m_directions(torus.direction_count()) {
  const auto nodes = static_cast<std::uint32_t>(torus.node_count());
  m_node.assign(nodes, false);
  m_hop.assign(std::size_t{nodes} * m_directions, false);
  m_listed.assign(m_hop.size(), false);
  const auto node_of = [&](const std::vector<int>& c) {
    Coords at{};
    for (std::size_t d = 0; d < c.size(); ++d) at[d] = c[d];
    return torus.node(at);
  };
  for (const auto& n : params.nodes) m_node[node_of(n)] = true;
  for (std::uint32_t n : draw(nodes, params.random_nodes, seed, kNodeStream)) m_node[n] = true;
  for (NodeId n = 0; n < nodes; ++n) {
    if (!m_node[n]) continue;
    m_failed_nodes.push_back(n);
    for (int d = 0; d < m_directions; ++d) {
      const Direction dir = Direction::from_index(d);
      m_hop[n * m_directions + d] = true;
      m_hop[torus.neighbor(n, dir) * m_directions + dir.opposite().index()] = true;
    }
  }
  for (const auto& link : params.links) {
    Direction d;
    parse_direction(link.dir, d);  // validated
    fail_link(torus, node_of(link.node), d);
  }
  const auto dims = static_cast<std::uint32_t>(torus.dims());
  for (std::uint32_t l : draw(nodes * dims, params.random_links, seed, kLinkStream)) {
    fail_link(torus, l / dims, Direction{static_cast<int>(l % dims), false});
  }
  std::sort(m_failed_links.begin(), m_failed_links.end(), [&](const Link& a, const Link& b) {
    return a.node * m_directions + a.dir.index() < b.node * m_directions + b.dir.index();
  });
}

void FaultMap::fail_link(const Torus& torus, NodeId node, Direction d) {
  if (d.negative) {  // named by its plus end
    node = torus.neighbor(node, d);
    d = d.opposite();
  }
  const NodeId far = torus.neighbor(node, d);
  const std::size_t there = node * m_directions + d.index();
  const std::size_t back = far * m_directions + d.opposite().index();
  if (!m_listed[there]) m_failed_links.push_back({node, d});  // a link named twice: once
  m_listed[there] = m_hop[there] = m_hop[back] = true;
}

std::string FaultMap::describe(const Torus& torus, std::size_t limit) const {
  std::string out;
  const auto more = [&](std::size_t shown, std::size_t all) {
    return all > shown ? fmt::format(" and {} more", all - shown) : std::string();
  };
  if (!m_failed_links.empty()) {
    out += "failed links";
    for (std::size_t i = 0; i < m_failed_links.size() && i < limit; ++i) {
      out += fmt::format("{} {}{}", i ? "," : "", torus.format(m_failed_links[i].node),
                         m_failed_links[i].dir.name());
    }
    out += more(limit, m_failed_links.size());
  }
  if (!m_failed_nodes.empty()) {
    out += out.empty() ? "failed nodes" : "; failed nodes";
    for (std::size_t i = 0; i < m_failed_nodes.size() && i < limit; ++i) {
      out += fmt::format("{} {}", i ? "," : "", torus.format(m_failed_nodes[i]));
    }
    out += more(limit, m_failed_nodes.size());
  }
  return out;
}

}  // namespace angara
