// Unit tests of direction-order routing: every route is minimal, follows the direction order and
// ends by ejecting at the destination, under every tie rule; the dateline channel-dependency
// graph is acyclic; the bubble credit rule and the dateline VC classes behave as the routing
// header describes (the tie rules' choices: tie_rule_test.cpp).

#include "models/routing/direction_order_routing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/core/packet.h"
#include "platform/config/config_values.h"
#include "regress/support/graph.h"
#include "regress/support/route_walk.h"

namespace angara {
namespace {

using namespace test;  // NOLINT: the route walk's helpers and direction names

TEST(CycleDetection, FindsCyclesAndOnlyCycles) {
  EXPECT_FALSE(has_cycle({}));
  EXPECT_FALSE(has_cycle({{}, {}, {}}));
  EXPECT_TRUE(has_cycle({{0}}));                          // self-loop
  EXPECT_TRUE(has_cycle({{1}, {2}, {0}}));                // ring of three
  EXPECT_FALSE(has_cycle({{1, 2}, {3}, {3}, {}}));        // diamond: two paths, no cycle
  EXPECT_FALSE(has_cycle({{1}, {2}, {}}));                // path
  EXPECT_TRUE(has_cycle({{}, {2}, {3}, {4}, {2}}));       // cycle not reachable from vertex 0
  EXPECT_FALSE(has_cycle({{}, {0}, {0, 1}, {2, 1, 0}}));  // edges only to smaller vertices
}

std::string shape_name(const std::vector<int>& dims) {
  std::string name;
  for (int k : dims) name += (name.empty() ? "" : "x") + std::to_string(k);
  return name;
}

std::string order_name(const std::vector<Direction>& order) {
  if (order.empty()) return "default";
  std::string name;
  for (Direction d : order) name += (d.negative ? "m" : "p") + std::string(1, kDimNames[d.dim]);
  return name;
}

std::string scheme_name(DeadlockScheme scheme) {
  switch (scheme) {
    case DeadlockScheme::Bubble:
      return "Bubble";
    case DeadlockScheme::Dateline:
      return "Dateline";
    case DeadlockScheme::HopClasses:
      return "HopClasses";
    case DeadlockScheme::None:
      return "None";
  }
  return "?";
}

// The rule as the config spells it ("_source_parity"); nothing for the default.
std::string ties_name(TieRule ties) {
  if (ties == TieRule::Positive) return "";
  return "_" + config_values::json_value(ties).get<std::string>();
}

// The packet keys a test routes each pair with: one, or under the random rule eight, so that
// both ways round are taken.
std::vector<std::uint64_t> keys_for(TieRule ties) {
  if (ties != TieRule::Random) return {0};
  return {0, 1, 2, 3, 4, 5, 6, 7};
}

constexpr std::uint64_t kSeed = 7;

struct RoutingCase {
  std::vector<int> dims;
  DeadlockScheme scheme;
  std::vector<Direction> order;  // empty: the default order
  TieRule ties = TieRule::Positive;
};

std::string case_label(const RoutingCase& c) {
  return shape_name(c.dims) + "_" + scheme_name(c.scheme) + "_" + order_name(c.order) +
         ties_name(c.ties);
}

std::string case_name(const testing::TestParamInfo<RoutingCase>& info) {
  return case_label(info.param);
}

// Makes GoogleTest print a failing case by name rather than as raw bytes.
void PrintTo(const RoutingCase& c, std::ostream* os) {  // NOLINT: GoogleTest's name
  *os << case_label(c);
}

// Non-default direction orders per number of dimensions.
std::vector<std::vector<Direction>> other_orders(int dims) {
  switch (dims) {
    case 2:
      return {{kPY, kMY, kPX, kMX}, {kMX, kPY, kPX, kMY}};
    case 3:
      return {{kPX, kPY, kPZ, kMX, kMY, kMZ}, {kMZ, kPZ, kMY, kPY, kMX, kPX}};
    case 4:
      return {{kPW, kMW, kPZ, kMZ, kPY, kMY, kPX, kMX}, {kPX, kPY, kPZ, kPW, kMX, kMY, kMZ, kMW}};
    default:
      return {};
  }
}

std::vector<RoutingCase> routing_cases(const std::vector<std::vector<int>>& shapes,
                                       const std::vector<DeadlockScheme>& schemes) {
  std::vector<RoutingCase> cases;
  for (const auto& dims : shapes) {
    std::vector<std::vector<Direction>> orders{{}};
    for (auto& o : other_orders(static_cast<int>(dims.size()))) orders.push_back(o);
    for (DeadlockScheme scheme : schemes) {
      for (const auto& order : orders) cases.push_back({dims, scheme, order});
    }
  }
  return cases;
}

const std::vector<DeadlockScheme> kAllSchemes = {DeadlockScheme::Bubble, DeadlockScheme::Dateline,
                                                 DeadlockScheme::None};

// Each rule that can go the negative way, on tori with even rings, in the default order.
std::vector<RoutingCase> tie_cases(const std::vector<DeadlockScheme>& schemes) {
  std::vector<RoutingCase> cases;
  for (const std::vector<int>& dims :
       std::vector<std::vector<int>>{{4, 4}, {8, 8}, {6, 4, 2}, {4, 4, 4}, {2, 2, 2, 2}}) {
    for (DeadlockScheme scheme : schemes) {
      for (TieRule ties : {TieRule::SourceParity, TieRule::DestinationParity, TieRule::Random}) {
        cases.push_back({dims, scheme, {}, ties});
      }
    }
  }
  return cases;
}

class AllPairsRouting : public testing::TestWithParam<RoutingCase> {};

// Every route ejects at its destination after exactly min_hops hops; its directions never go
// back to an earlier one in the order; enters_ring marks exactly the hops that change direction;
// the VC class is 0 for single-class schemes and, for the dateline, 1 exactly when the packet
// has crossed the wrap link of the ring it is on.
TEST_P(AllPairsRouting, RoutesAreMinimalOrderedAndCorrectlyClassed) {
  const RoutingCase& c = GetParam();
  const Torus torus(c.dims);
  const RouterParams params = router_params(c.scheme, c.order, c.ties);
  ASSERT_NO_THROW(params.validate(torus.dims()));
  const DirectionOrderRouting routing(torus, params, kSeed);
  const std::vector<Direction> order = params.resolved_direction_order(torus.dims());
  auto rank = [&](Direction d) {
    return static_cast<int>(std::find(order.begin(), order.end(), d) - order.begin());
  };

  for (NodeId src = 0; src < static_cast<NodeId>(torus.node_count()); ++src) {
    for (NodeId dst = 0; dst < static_cast<NodeId>(torus.node_count()); ++dst) {
      for (const std::uint64_t key : keys_for(c.ties)) {
        const std::string pair =
            torus.format(src) + "->" + torus.format(dst) + " key " + std::to_string(key);
        const Walk w = walk(torus, routing, src, dst, key);
        ASSERT_TRUE(w.ejected) << pair << ": no ejection";
        ASSERT_EQ(w.end, dst) << pair << ": ejected at " << torus.format(w.end);
        ASSERT_EQ(static_cast<int>(w.hops.size()), torus.min_hops(src, dst)) << pair;
        bool wrapped = false;
        for (std::size_t i = 0; i < w.hops.size(); ++i) {
          const Hop& h = w.hops[i];
          const bool straight = i > 0 && w.hops[i - 1].dir == h.dir;
          if (i > 0) {
            ASSERT_GE(rank(h.dir), rank(w.hops[i - 1].dir))
                << pair << ": " << w.hops[i - 1].dir.name() << " then " << h.dir.name();
          }
          ASSERT_EQ(h.enters_ring, !straight) << pair << " hop " << i;
          wrapped = (straight && wrapped) || torus.is_wrap_hop(h.node, h.dir);
          const int expected_class = c.scheme == DeadlockScheme::Dateline && wrapped ? 1 : 0;
          ASSERT_EQ(h.vc_class, expected_class) << pair << " hop " << i << " " << h.dir.name();
          ASSERT_LT(h.vc_class, routing.vc_classes());
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tori, AllPairsRouting,
    testing::ValuesIn(routing_cases({{4, 4}, {3, 3, 3}, {2, 2, 2, 2}, {5, 3}, {8, 8}, {4, 4, 4}},
                                    kAllSchemes)),
    case_name);
INSTANTIATE_TEST_SUITE_P(
    Ties, AllPairsRouting,
    testing::ValuesIn(tie_cases({DeadlockScheme::Bubble, DeadlockScheme::Dateline})), case_name);

// The channel-dependency graph of all minimal routes: a vertex per channel (node, output
// direction, VC class), an edge from each channel a route takes to the next one it takes.
Graph channel_dependency_graph(const Torus& torus, const DirectionOrderRouting& routing,
                               const std::vector<std::uint64_t>& keys = {0}) {
  const int classes = routing.vc_classes();
  auto channel = [&](const Hop& h) {
    return (static_cast<int>(h.node) * 2 * kMaxDims + h.dir.index()) * classes + h.vc_class;
  };
  Graph graph(static_cast<std::size_t>(torus.node_count()) * 2 * kMaxDims * classes);
  for (NodeId src = 0; src < static_cast<NodeId>(torus.node_count()); ++src) {
    for (NodeId dst = 0; dst < static_cast<NodeId>(torus.node_count()); ++dst) {
      for (const std::uint64_t key : keys) {
        const Walk w = walk(torus, routing, src, dst, key);
        for (std::size_t i = 1; i < w.hops.size(); ++i) {
          graph[channel(w.hops[i - 1])].push_back(channel(w.hops[i]));
        }
      }
    }
  }
  for (auto& edges : graph) {
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  }
  return graph;
}

std::size_t edge_count(const Graph& graph) {
  std::size_t n = 0;
  for (const auto& edges : graph) n += edges.size();
  return n;
}

class DatelineDependencies : public testing::TestWithParam<RoutingCase> {};

// The deadlock-freedom argument of the dateline scheme: no cycle of channel dependencies.
TEST_P(DatelineDependencies, GraphIsAcyclic) {
  const RoutingCase& c = GetParam();
  const Torus torus(c.dims);
  const DirectionOrderRouting routing(torus, router_params(c.scheme, c.order, c.ties), kSeed);
  const Graph graph = channel_dependency_graph(torus, routing, keys_for(c.ties));
  EXPECT_GT(edge_count(graph), 0u);  // routes of two or more hops exist, so there are edges
  EXPECT_FALSE(has_cycle(graph));
}

INSTANTIATE_TEST_SUITE_P(
    Tori, DatelineDependencies,
    testing::ValuesIn(routing_cases({{4, 4}, {3, 3, 3}, {2, 2, 2, 2}, {5, 3}, {8, 8}, {4, 4, 4}},
                                    {DeadlockScheme::Dateline})),
    case_name);
INSTANTIATE_TEST_SUITE_P(Ties, DatelineDependencies,
                         testing::ValuesIn(tie_cases({DeadlockScheme::Dateline})), case_name);

// Evidence that the acyclicity check can fail: with one VC class (bubble, or no protection) the
// minimal routes on a ring of k >= 4 nodes include two-hop runs starting at every node of the
// ring (for k = 4 only in the positive direction, where the ties go), so the ring's channels
// depend on each other in a closed cycle. The bubble scheme is
// deadlock-free by its credit rule, not by an acyclic graph.
class SingleClassRingDependencies : public testing::TestWithParam<RoutingCase> {};

TEST_P(SingleClassRingDependencies, GraphHasACycle) {
  const Torus torus(GetParam().dims);
  const DirectionOrderRouting routing(torus, router_params(GetParam().scheme, GetParam().order));
  EXPECT_TRUE(has_cycle(channel_dependency_graph(torus, routing)));
}

INSTANTIATE_TEST_SUITE_P(Tori, SingleClassRingDependencies,
                         testing::ValuesIn(routing_cases({{4, 4}, {5, 3}, {8, 8}, {4, 4, 4}},
                                                         {DeadlockScheme::Bubble,
                                                          DeadlockScheme::None})),
                         case_name);

// On rings of 2 or 3 nodes a minimal route takes at most one hop per ring (k = 3: offsets lie in
// (-1.5, 1.5]), so no route goes straight through a router, there are no ring dependencies, and
// even the single-class graph is acyclic: 3x3x3 and 2x2x2x2 cannot show a ring cycle.
class SingleClassShortRings : public testing::TestWithParam<RoutingCase> {};

TEST_P(SingleClassShortRings, GraphIsAcyclic) {
  const Torus torus(GetParam().dims);
  const DirectionOrderRouting routing(torus, router_params(GetParam().scheme, GetParam().order));
  const Graph graph = channel_dependency_graph(torus, routing);
  EXPECT_GT(edge_count(graph), 0u);
  EXPECT_FALSE(has_cycle(graph));
}

INSTANTIATE_TEST_SUITE_P(Tori, SingleClassShortRings,
                         testing::ValuesIn(routing_cases({{3, 3, 3}, {2, 2, 2, 2}},
                                                         {DeadlockScheme::Bubble})),
                         case_name);

// 4x4, default order, source (0,0) to (2,1): +X enters, +X straight, +Y turns, then ejects.
TEST(RequiredCredits, BubbleAddsALargestPacketOnlyWhenEnteringARing) {
  const Torus torus({4, 4});
  const DirectionOrderRouting routing(torus, router_params(DeadlockScheme::Bubble, {}));
  const NodeId dst = torus.node({2, 1});
  const int flits = 5;

  const RouteStep inject = routing.route(torus.node({0, 0}), dst, std::nullopt, 0);
  ASSERT_FALSE(inject.eject);
  ASSERT_EQ(inject.port, kPX.index());
  EXPECT_TRUE(inject.enters_ring);
  EXPECT_EQ(routing.required_credits(inject, flits), flits + kMaxPacketFlits);

  const RouteStep straight = routing.route(torus.node({1, 0}), dst, kPX, inject.vc_class);
  ASSERT_EQ(straight.port, kPX.index());
  EXPECT_FALSE(straight.enters_ring);
  EXPECT_EQ(routing.required_credits(straight, flits), flits);

  const RouteStep turn = routing.route(torus.node({2, 0}), dst, kPX, straight.vc_class);
  ASSERT_EQ(turn.port, kPY.index());
  EXPECT_TRUE(turn.enters_ring);
  EXPECT_EQ(routing.required_credits(turn, flits), flits + kMaxPacketFlits);

  const RouteStep eject = routing.route(dst, dst, kPY, turn.vc_class);
  ASSERT_TRUE(eject.eject);
  EXPECT_EQ(routing.required_credits(eject, flits), flits);

  // Ejection never needs the bubble, whatever the other fields say.
  RouteStep odd_eject;
  odd_eject.eject = true;
  odd_eject.enters_ring = true;
  EXPECT_EQ(routing.required_credits(odd_eject, flits), flits);
  EXPECT_EQ(routing.required_credits(inject, kMaxPacketFlits), 2 * kMaxPacketFlits);
}

TEST(RequiredCredits, DatelineAndNoneNeverAdd) {
  const Torus torus({4, 4});
  for (DeadlockScheme scheme : {DeadlockScheme::Dateline, DeadlockScheme::None}) {
    SCOPED_TRACE(scheme_name(scheme));
    const DirectionOrderRouting routing(torus, router_params(scheme, {}));
    for (NodeId src = 0; src < 16; ++src) {
      for (NodeId dst = 0; dst < 16; ++dst) {
        NodeId here = src;
        std::optional<Direction> arrived_by;
        int vc_class = 0;
        for (int hop = 0; hop <= 16; ++hop) {
          const RouteStep step = routing.route(here, dst, arrived_by, vc_class);
          for (int flits : {1, 9, kMaxPacketFlits}) {
            ASSERT_EQ(routing.required_credits(step, flits), flits);
          }
          if (step.eject) break;
          arrived_by = Direction::from_index(step.port);
          here = torus.neighbor(here, *arrived_by);
          vc_class = step.vc_class;
        }
      }
    }
    RouteStep entering;
    entering.enters_ring = true;
    EXPECT_EQ(routing.required_credits(entering, 3), 3);
  }
}

// 4x4, default order, (3,0) to (1,1): +X over the wrap link (class 1), +X straight on (stays 1),
// +Y turning without a wrap (back to 0), eject.
TEST(DatelineClass, SetOnTheWrapHopKeptStraightResetOnTurning) {
  const Torus torus({4, 4});
  const DirectionOrderRouting routing(torus, router_params(DeadlockScheme::Dateline, {}));
  EXPECT_EQ(routing.vc_classes(), 2);
  const NodeId dst = torus.node({1, 1});

  const RouteStep wrap = routing.route(torus.node({3, 0}), dst, std::nullopt, 0);
  ASSERT_EQ(wrap.port, kPX.index());
  EXPECT_EQ(wrap.vc_class, 1);

  const RouteStep straight = routing.route(torus.node({0, 0}), dst, kPX, wrap.vc_class);
  ASSERT_EQ(straight.port, kPX.index());
  EXPECT_EQ(straight.vc_class, 1);

  const RouteStep turn = routing.route(torus.node({1, 0}), dst, kPX, straight.vc_class);
  ASSERT_EQ(turn.port, kPY.index());
  EXPECT_EQ(turn.vc_class, 0);

  EXPECT_TRUE(routing.route(dst, dst, kPY, turn.vc_class).eject);
}

TEST(DatelineClass, ZeroBeforeTheWrapAndOneWhenTurningOntoAWrapLink) {
  const Torus torus({4, 4});
  const DirectionOrderRouting routing(torus, router_params(DeadlockScheme::Dateline, {}));

  // (2,0) to (0,0): +X (tie goes positive) to (3,0) on class 0, then over the wrap on class 1.
  const NodeId dst = torus.node({0, 0});
  const RouteStep first = routing.route(torus.node({2, 0}), dst, std::nullopt, 0);
  ASSERT_EQ(first.port, kPX.index());
  EXPECT_EQ(first.vc_class, 0);
  const RouteStep second = routing.route(torus.node({3, 0}), dst, kPX, first.vc_class);
  ASSERT_EQ(second.port, kPX.index());
  EXPECT_EQ(second.vc_class, 1);

  // Arriving on class 1 by +X and turning to -Y from y = 0 crosses the Y wrap link: class 1.
  const RouteStep turn_wrap = routing.route(torus.node({1, 0}), torus.node({1, 3}), kPX, 1);
  ASSERT_EQ(turn_wrap.port, kMY.index());
  EXPECT_EQ(turn_wrap.vc_class, 1);

  // Arriving on class 1 by +X and turning to +Y from y = 1: class 0 again.
  const RouteStep turn_plain = routing.route(torus.node({1, 1}), torus.node({1, 2}), kPX, 1);
  ASSERT_EQ(turn_plain.port, kPY.index());
  EXPECT_EQ(turn_plain.vc_class, 0);
}

TEST(DirectionOrder, NonDefaultOrderIsFollowed) {
  const Torus torus({4, 4});
  const DirectionOrderRouting yx(torus,
                                 router_params(DeadlockScheme::Bubble, {kPY, kMY, kPX, kMX}));
  const DirectionOrderRouting xy(torus, router_params(DeadlockScheme::Bubble, {}));
  const NodeId src = torus.node({0, 0}), dst = torus.node({1, 1});
  EXPECT_EQ(yx.route(src, dst, std::nullopt, 0).port, kPY.index());
  EXPECT_EQ(xy.route(src, dst, std::nullopt, 0).port, kPX.index());
  // -X before +Y in this order: (1,0) to (0,1) goes -X first.
  const DirectionOrderRouting mixed(torus,
                                    router_params(DeadlockScheme::Bubble, {kMX, kPY, kPX, kMY}));
  EXPECT_EQ(mixed.route(torus.node({1, 0}), torus.node({0, 1}), std::nullopt, 0).port, kMX.index());
  // ... but +Y before +X: (0,0) to (1,1) goes +Y first.
  EXPECT_EQ(mixed.route(src, dst, std::nullopt, 0).port, kPY.index());
}

}  // namespace
}  // namespace angara
