// Trees given row by row in a config: read, turned into routing tables, and every class of
// invalid tree rejected before simulation with the tree, the node, the field and the rule.

#include <gtest/gtest.h>

#include <string>

#include "models/core/config_error.h"
#include "platform/config/config_loader.h"
#include "platform/machine/tree_plan.h"

namespace angara {
namespace {

// A valid tree on a 3x2 torus, rooted at (1,0): along X both ways, then +Y from each.
const std::string kValid = R"(
[topology]
dims = [3, 2]
[collective]
trees = 1
[[collective.tree]]
id = 1
rows = [
  { node = [1, 0], root = true, dirs = ["+X", "-X", "+Y"] },
  { node = [2, 0], to_root = "-X", dirs = ["+Y"] },
  { node = [0, 0], to_root = "+X", dirs = ["+Y"] },
  { node = [1, 1], to_root = "-Y" },
  { node = [2, 1], to_root = "-Y" },
  { node = [0, 1], to_root = "-Y" },
]
)";

std::vector<Tree> trees_of(const std::string& text) {
  const Config c = load_config(text, "test.toml", {});
  return plan_trees(c, Torus(c.topology.dims));
}

// kValid with one piece of text replaced.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

void expect_rejected(const std::string& text, const std::string& key, const std::string& rule) {
  try {
    trees_of(text);
    FAIL() << "accepted, expected a ConfigError about " << rule;
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(key), std::string::npos) << what;
    EXPECT_NE(what.find(rule), std::string::npos) << what;
  }
}

TEST(TreeConfig, RowsBecomeTheRoutingTable) {
  const auto trees = trees_of(kValid);
  ASSERT_EQ(trees.size(), 2u);
  const Tree& t = trees[1];
  EXPECT_EQ(t.id, 1);
  EXPECT_EQ(t.root, 1u);
  EXPECT_TRUE(t.rows[1].is_root);
  EXPECT_EQ(t.rows[1].dir_sum, 3);
  EXPECT_EQ(t.rows[2].to_root, (Direction{0, true}));
  EXPECT_EQ(t.pe_count(), 6);
}

TEST(TreeConfig, TransitNodesTakeNoPartInGivenTrees) {
  // collective.transit applies to every tree, the given ones included: (2,0) routes only.
  const auto trees = trees_of(edited("trees = 1\n", "trees = 1\ntransit = [[2, 0]]\n"));
  ASSERT_EQ(trees.size(), 2u);
  for (const Tree& t : trees) {
    EXPECT_TRUE(t.rows[2].member) << "tree " << t.id;
    EXPECT_FALSE(t.rows[2].pe) << "tree " << t.id;
    EXPECT_EQ(t.pe_count(), 5) << "tree " << t.id;
  }
  // A transit leaf of a given tree is refused naming the key that made it transit.
  expect_rejected(edited("trees = 1\n", "trees = 1\ntransit = [[0, 1]]\n"),
                  "config key 'collective.transit' = [0, 1]",
                  "the node is a leaf of tree 1 given row by row (collective.tree), and a transit "
                  "node needs children");
}

TEST(TreeConfig, RoundTripsThroughTheTomlWriter) {
  const Config c = load_config(kValid, "test.toml", {});
  EXPECT_EQ(load_config(config_to_toml(c), "again.toml", {}).collective.tree, c.collective.tree);
}

TEST(TreeConfig, EveryBrokenRuleIsNamed) {
  // Rule 1: exactly one root.
  expect_rejected(edited("{ node = [2, 0], to_root = \"-X\",", "{ node = [2, 0], root = true,"),
                  "collective.tree[1]", "root");
  expect_rejected(edited("root = true, ", ""), "collective.tree[1]", "root");
  // Rule 2: a down direction leads to a node whose up direction is its opposite.
  expect_rejected(
      edited("{ node = [1, 1], to_root = \"-Y\" }", "{ node = [1, 1], to_root = \"-X\" }"), "(1,1)",
      "opposite");
  // Rule 3: down directions only along later dimensions or straight on.
  expect_rejected(edited("{ node = [1, 1], to_root = \"-Y\" }",
                         "{ node = [1, 1], to_root = \"-Y\", dirs = [\"+X\"] }"),
                  "(1,1) dirs", "not after the up direction");
  // A member its parent does not list: not reachable from the root.
  expect_rejected(edited("dirs = [\"+X\", \"-X\", \"+Y\"]", "dirs = [\"+X\", \"-X\"]"), "(1,1)",
                  "reachable");
  // A transit leaf would never contribute to a reduce.
  expect_rejected(edited("{ node = [0, 1], to_root = \"-Y\" }",
                         "{ node = [0, 1], to_root = \"-Y\", pe = false }"),
                  "(0,1) pe", "transit");
}

TEST(TreeConfig, BadRowsAreConfigErrorsNamingTheField) {
  expect_rejected(edited("to_root = \"-X\", dirs", "to_root = \"down\", dirs"),
                  "collective.tree[0].rows[1].to_root", "direction");
  expect_rejected(edited("{ node = [0, 1],", "{ node = [0, 5],"), "collective.tree[0].rows[5].node",
                  "coordinate");
  expect_rejected(edited("{ node = [1, 1], to_root", "{ node = [1, 1], colour = 1, to_root"),
                  "collective.tree[0].rows[3].colour", "unknown field");
  expect_rejected(edited("id = 1", "id = 0"), "collective.tree[0].id", "not taken");
}

}  // namespace
}  // namespace angara
