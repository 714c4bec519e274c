#pragma once
// How a torus is split over MPI ranks: a grid of equal boxes, one per rank. A split of p boxes
// along a ring of k nodes (p divides k) cuts the ring's links at p places, so the boxes are
// chosen to cut the fewest links unless the user names the grid (--grid 2x2x1).

#include <cstdint>
#include <string>
#include <vector>

#include "models/topology/torus.h"

namespace angara {

class RankGrid {
 public:
  // The grid of `ranks` boxes that cuts the fewest links of `torus`; of equal ones, the one split
  // along the last dimensions (so a box's nodes are contiguous in node order). A ConfigError when
  // no grid of `ranks` equal boxes exists.
  static RankGrid fewest_cuts(const Torus& torus, int ranks);
  // The grid `text` ("2x2x1", one factor per dimension) names: a ConfigError naming --grid unless
  // each factor divides its ring and their product is `ranks`.
  static RankGrid parse(const std::string& text, const Torus& torus, int ranks);

  // The rank that owns `node`: boxes numbered with X fastest, as nodes are.
  int owner(NodeId node) const;
  int ranks() const;
  // Directed router-to-router links from one rank's box to another's.
  std::uint64_t cut_links() const;
  // "2x1x1".
  std::string text() const;

 private:
  RankGrid(const Torus& torus, std::vector<int> split);

  const Torus* m_torus;
  std::vector<int> m_split;  // [dim]: boxes along the dimension
};

}  // namespace angara
