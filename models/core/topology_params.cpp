#include "models/core/params.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "models/core/config_error.h"

namespace angara {

int TopologyParams::node_count() const {
  // Saturates past the node limit, so that a machine too large to build (validate() refuses it)
  // never overflows on the way there.
  long long n = 1;
  if (kind == TopologyKind::FatTree) {
    for (int l = 0; l < levels; ++l) n = std::min<long long>(n * std::max(k, 0), kMaxNodes + 1LL);
    return static_cast<int>(n);
  }
  if (kind == TopologyKind::Cayley) return std::clamp(order, 0, kMaxNodes + 1);
  for (int size : dims) n = std::min<long long>(n * std::max(size, 0), kMaxNodes + 1LL);
  return static_cast<int>(n);
}

int TopologyParams::diameter() const {
  if (kind == TopologyKind::FatTree) return 2 * (levels - 1);  // from a leaf to the top and down
  if (kind == TopologyKind::Cayley) {
    throw std::logic_error("a Cayley graph's diameter is its geometry's (topology.h diameter())");
  }
  int hops = 0;
  for (int size : dims) hops += size / 2;
  return hops;
}

void TopologyParams::check_node(const std::string& key, const std::vector<int>& c) const {
  const auto text = fmt::format("[{}]", fmt::join(c, ", "));
  if (!torus()) {
    if (c.size() != 1 || c[0] < 0 || c[0] >= node_count()) {
      throw ConfigError(key, text,
                        fmt::format("a {}'s node is given by its number, [0] to [{}]",
                                    kind == TopologyKind::FatTree ? "fat tree" : "Cayley graph",
                                    node_count() - 1));
    }
    return;
  }
  if (c.size() != dims.size()) {
    throw ConfigError(
        key, text,
        fmt::format("a node is given by {} coordinates, one per dimension", dims.size()));
  }
  for (std::size_t d = 0; d < c.size(); ++d) {
    if (c[d] < 0 || c[d] >= dims[d]) {
      throw ConfigError(key, text, fmt::format("coordinate {} must be 0 to {}", d, dims[d] - 1));
    }
  }
}

NodeId TopologyParams::node_at(const std::vector<int>& coords) const {
  if (!torus()) return static_cast<NodeId>(coords.at(0));
  NodeId node = 0;
  for (std::size_t d = coords.size(); d-- > 0;) {
    node = node * static_cast<NodeId>(dims[d]) + static_cast<NodeId>(coords[d]);
  }
  return node;
}

void TopologyParams::validate() const {
  if (kind == TopologyKind::FatTree) {
    if (k < 2 || 2 * k > kMaxLinkPorts) {
      throw ConfigError("topology.k", std::to_string(k),
                        fmt::format("a fat tree's switches have 2k link ports, a router at most "
                                    "{}: k must be 2 to {}",
                                    kMaxLinkPorts, kMaxLinkPorts / 2));
    }
    long long nodes = 1;
    for (int l = 0; l < levels && nodes <= 65536; ++l) nodes *= k;
    if (levels < 1 || nodes > 65536) {
      throw ConfigError("topology.levels", std::to_string(levels),
                        fmt::format("k^levels nodes: at least 1 level and at most 65536 nodes "
                                    "(16-bit node ids in the header) with k = {}",
                                    k));
    }
    return;
  }
  if (kind == TopologyKind::Cayley) {
    if (group == CayleyGroup::Circulant) {
      validate_circulant();
    } else if (symbols() == 0) {
      throw ConfigError("topology.order", std::to_string(order),
                        "a star or pancake graph's nodes are the orderings of m symbols: m! of "
                        "them, 6, 24, 120, 720, 5040 or 40320 (m = 3 to 8)");
    }
    return;
  }
  const auto text = fmt::format("[{}]", fmt::join(dims, ", "));
  if (dims.empty() || dims.size() > kMaxDims) {
    throw ConfigError("topology.dims", text, "a torus has 1 to 4 dimensions (X, Y, Z, W)");
  }
  for (int size : dims) {
    if (size < 2) {
      throw ConfigError("topology.dims", text, "every dimension size must be at least 2");
    }
  }
  if (node_count() > kMaxNodes) {
    throw ConfigError("topology.dims", text,
                      fmt::format("at most {} nodes (16-bit node ids in the header)", kMaxNodes));
  }
}

int TopologyParams::symbols() const {
  int factorial = 1;
  for (int m = 1; m <= 8; ++m) {
    factorial *= m;
    if (m >= 3 && factorial == order) return m;
  }
  return 0;
}

void TopologyParams::validate_circulant() const {
  if (order < 2 || order > kMaxNodes) {
    throw ConfigError(
        "topology.order", std::to_string(order),
        fmt::format("a circulant has 2 to {} nodes (16-bit node ids in the header)", kMaxNodes));
  }
  const auto text = fmt::format("[{}]", fmt::join(generators, ", "));
  const auto refuse = [&](const std::string& rule) {
    throw ConfigError("topology.generators", text, rule);
  };
  if (generators.empty() || 2 * generators.size() > kMaxLinkPorts) {
    refuse(
        fmt::format("a circulant has 1 to {} generators: each gives a router two link ports "
                    "(+s and -s), and a router has at most {}",
                    kMaxLinkPorts / 2, kMaxLinkPorts));
  }
  int common = order;
  for (std::size_t i = 0; i < generators.size(); ++i) {
    const int s = generators[i];
    if (s < 1 || s >= order) {
      refuse(fmt::format("each step must be 1 to {} (topology.order - 1)", order - 1));
    }
    if (2 * s == order) {
      refuse(
          fmt::format("the step {} is half of topology.order: +{} and -{} would be the same "
                      "link; leave it out",
                      s, s, s));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (generators[j] == s || generators[j] + s == order) {
        refuse(
            fmt::format("the steps {} and {} give the same links (s and order - s are one "
                        "generator up to sign): leave one out",
                        generators[j], s));
      }
    }
    common = std::gcd(common, s);
  }
  if (common != 1) {
    refuse(
        fmt::format("the steps and topology.order = {} have the common divisor {}, so the "
                    "graph falls apart into {} pieces: include a step prime to the order",
                    order, common, common));
  }
}

}  // namespace angara
