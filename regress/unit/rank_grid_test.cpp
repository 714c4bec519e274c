// The boxes a torus is split into over MPI ranks: equal boxes, the fewest cut links by default,
// and a user's grid checked against the torus and the rank count.
#include <gtest/gtest.h>

#include <map>

#include "models/core/config_error.h"
#include "platform/parallel/rank_grid.h"

namespace angara {
namespace {

// Directed links whose ends have different owners, counted link by link.
std::uint64_t count_cut(const Torus& torus, const RankGrid& grid) {
  std::uint64_t cut = 0;
  for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) {
    for (int d = 0; d < torus.direction_count(); ++d) {
      cut += grid.owner(n) != grid.owner(torus.neighbor(n, Direction::from_index(d)));
    }
  }
  return cut;
}

TEST(RankGrid, EveryRankOwnsAnEqualBoxAndTheCutIsCountedRight) {
  for (const auto& [dims, ranks] : std::vector<std::pair<std::vector<int>, int>>{{{8, 8, 8}, 2},
                                                                                 {{8, 8, 8}, 4},
                                                                                 {{8, 8, 8}, 64},
                                                                                 {{4, 4, 2, 2}, 8},
                                                                                 {{16}, 4},
                                                                                 {{2, 2}, 4}}) {
    const Torus torus(dims);
    const RankGrid grid = RankGrid::fewest_cuts(torus, ranks);
    EXPECT_EQ(grid.ranks(), ranks);
    std::map<int, int> nodes_of;
    for (NodeId n = 0; n < static_cast<NodeId>(torus.node_count()); ++n) ++nodes_of[grid.owner(n)];
    ASSERT_EQ(static_cast<int>(nodes_of.size()), ranks) << grid.text();
    for (const auto& [rank, nodes] : nodes_of) {
      EXPECT_TRUE(rank >= 0 && rank < ranks);
      EXPECT_EQ(nodes, torus.node_count() / ranks) << grid.text();
    }
    EXPECT_EQ(grid.cut_links(), count_cut(torus, grid)) << grid.text();
  }
}

TEST(RankGrid, TheDefaultCutsTheFewestLinksAndSplitsTheLastDimensionOfEqualOnes) {
  const Torus cube({8, 8, 8});
  EXPECT_EQ(RankGrid::fewest_cuts(cube, 2).text(), "1x1x2");
  // 1x1x4 and 1x2x2 both cut 512 links: the first found, the last dimension split most, wins.
  EXPECT_EQ(RankGrid::fewest_cuts(cube, 4).text(), "1x1x4");
  const Torus slab({16, 16, 32});
  EXPECT_EQ(RankGrid::fewest_cuts(slab, 2).text(), "1x1x2");
  EXPECT_EQ(RankGrid::fewest_cuts(Torus({32, 8, 8}), 2).text(), "2x1x1");  // the longest ring
  for (int ranks : {2, 4, 8, 16}) {
    const RankGrid best = RankGrid::fewest_cuts(slab, ranks);
    for (const char* other : {"1x1x2", "2x1x1", "1x2x2", "2x2x1", "2x2x2", "1x4x4", "2x2x4"}) {
      try {
        EXPECT_LE(best.cut_links(), RankGrid::parse(other, slab, ranks).cut_links()) << other;
      } catch (const ConfigError&) {  // not a grid of this many ranks
      }
    }
  }
}

TEST(RankGrid, AGridThatDoesNotFitIsAnErrorNamingGrid) {
  const Torus cube({8, 8, 8});
  EXPECT_EQ(RankGrid::parse("2x1x1", cube, 2).text(), "2x1x1");
  for (const char* bad : {"2x1", "3x1x1", "2x2x1", "2xx1", "x", "", "2x1x1x1", "-2x1x1", "a"}) {
    try {
      static_cast<void>(RankGrid::parse(bad, cube, 2));
      ADD_FAILURE() << "accepted --grid " << bad;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.key(), "--grid") << bad;
    }
  }
  try {
    static_cast<void>(RankGrid::fewest_cuts(cube, 3));
    ADD_FAILURE() << "3 ranks on 8x8x8";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "topology.dims");
    EXPECT_NE(std::string(e.what()).find("3 MPI ranks"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace angara
