#include "platform/parallel/rank_grid.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/core/config_error.h"

namespace angara {
namespace {

std::uint64_t cut_links_of(const Torus& torus, const std::vector<int>& split) {
  std::uint64_t cut = 0;
  for (int d = 0; d < torus.dims(); ++d) {
    if (split[d] == 1) continue;
    // p cuts on each of the nodes / k rings, both directions.
    const auto rings = static_cast<std::uint64_t>(torus.node_count() / torus.size(d));
    cut += 2 * static_cast<std::uint64_t>(split[d]) * rings;
  }
  return cut;
}

// Every split of `ranks` into factors that divide their rings, last dimension first.
void each_split(const Torus& torus, int ranks, int dim, std::vector<int>& split,
                const auto& visit) {
  if (dim < 0) {
    if (ranks == 1) visit(split);
    return;
  }
  for (int p = std::min(ranks, torus.size(dim)); p >= 1; --p) {
    if (ranks % p != 0 || torus.size(dim) % p != 0) continue;
    split[dim] = p;
    each_split(torus, ranks / p, dim - 1, split, visit);
  }
  split[dim] = 1;
}

std::string dims_text(const Torus& torus) {
  std::vector<int> dims;
  for (int d = 0; d < torus.dims(); ++d) dims.push_back(torus.size(d));
  return fmt::format("{}", fmt::join(dims, "x"));
}

}  // namespace

RankGrid::RankGrid(const Torus& torus, std::vector<int> split)
    : m_torus(&torus), m_split(std::move(split)) {}

RankGrid RankGrid::fewest_cuts(const Torus& torus, int ranks) {
  std::vector<int> split(static_cast<std::size_t>(torus.dims()), 1), best;
  std::uint64_t fewest = 0;
  each_split(torus, ranks, torus.dims() - 1, split, [&](const std::vector<int>& s) {
    const std::uint64_t cut = cut_links_of(torus, s);
    if (best.empty() || cut < fewest) {
      best = s;
      fewest = cut;
    }
  });
  if (best.empty()) {
    throw ConfigError("topology.dims", dims_text(torus),
                      fmt::format("{} MPI ranks cannot split this torus into equal boxes: the "
                                  "ranks must be a product of one factor per dimension, each "
                                  "dividing its ring; launch another number of ranks",
                                  ranks));
  }
  return RankGrid(torus, std::move(best));
}

RankGrid RankGrid::parse(const std::string& text, const Torus& torus, int ranks) {
  const auto refuse = [&](const std::string& rule) {
    throw ConfigError("--grid", text,
                      fmt::format("{} (the torus is {}, the run has {} MPI rank{})", rule,
                                  dims_text(torus), ranks, ranks == 1 ? "" : "s"));
  };
  std::vector<int> split;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('x', pos), text.size());
    const std::string part = text.substr(pos, end - pos);
    if (part.empty() || part.size() > 5 ||
        part.find_first_not_of("0123456789") != std::string::npos) {
      refuse("boxes per dimension, whole numbers joined by 'x', e.g. 2x1x1");
    }
    split.push_back(std::stoi(part));
    pos = end + 1;
  }
  if (static_cast<int>(split.size()) != torus.dims()) {
    refuse(fmt::format("one factor per dimension of the torus: {}", torus.dims()));
  }
  long long product = 1;
  for (int d = 0; d < torus.dims(); ++d) {
    if (split[d] < 1 || torus.size(d) % split[d] != 0) {
      refuse(fmt::format("each factor must divide its ring: {} does not divide {}", split[d],
                         torus.size(d)));
    }
    product *= split[d];
  }
  if (product != ranks) refuse(fmt::format("the factors' product is {}, not {}", product, ranks));
  return RankGrid(torus, std::move(split));
}

int RankGrid::owner(NodeId node) const {
  const Coords& c = m_torus->coords(node);
  int rank = 0;
  for (int d = m_torus->dims() - 1; d >= 0; --d) {
    rank = rank * m_split[d] + c[d] / (m_torus->size(d) / m_split[d]);
  }
  return rank;
}

int RankGrid::ranks() const {
  int ranks = 1;
  for (int p : m_split) ranks *= p;
  return ranks;
}

std::uint64_t RankGrid::cut_links() const {
  return cut_links_of(*m_torus, m_split);
}

std::string RankGrid::text() const {
  return fmt::format("{}", fmt::join(m_split, "x"));
}

}  // namespace angara
