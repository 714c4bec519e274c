// The PEGroup's blocks without SystemC: Reducer arithmetic and slots, the credit block's rules,
// and where the PEGroup sends packets, with its timing.

#include "collectives/subnet/pe_group.h"

#include <gtest/gtest.h>

#include <limits>

#include "models/core/packet_ledger.h"
#include "models/core/rng.h"

namespace angara {
namespace {

Packet reduce_packet(int tree, int id, Reduction op, bool all, const std::vector<std::int64_t>& w) {
  Packet p;
  p.header.kind = PacketKind::Reduce;
  p.header.tree_id = static_cast<std::uint8_t>(tree);
  p.header.reduce_id = static_cast<std::uint8_t>(id);
  p.header.op = ReduceOp{op, all}.encode();
  p.header.data_flits = static_cast<std::uint8_t>((w.size() + 1) / 2);
  for (std::size_t i = 0; i < w.size(); ++i) set_word(p.data[i / 2], static_cast<int>(i % 2), w[i]);
  return p;
}

TEST(Reduction, WordOperationsIncludingOverflow) {
  const auto big = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(reduce_word(Reduction::Sum, 5, -7), -2);
  EXPECT_EQ(reduce_word(Reduction::Sum, big, 1), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(reduce_word(Reduction::Min, -3, 2), -3);
  EXPECT_EQ(reduce_word(Reduction::Max, -3, 2), 2);
  for (auto op : {Reduction::Sum, Reduction::Min, Reduction::Max}) {
    for (bool all : {false, true}) {
      const ReduceOp back = ReduceOp::decode(ReduceOp{op, all}.encode());
      EXPECT_EQ(back.reduction, op);
      EXPECT_EQ(back.all, all);
    }
  }
}

// Random int64 inputs from a processor and three children: exact sum, min and max per word.
TEST(Reducer, CombinesEveryExpectedContributionExactly) {
  TreeRow row;
  row.member = row.pe = true;
  row.dirs = 0b111;
  row.dir_sum = 3;  // 1 + 3 contributions expected
  Rng rng(7, 0);
  for (auto op : {Reduction::Sum, Reduction::Min, Reduction::Max}) {
    Reducer reducer;
    std::vector<Packet> inputs;
    std::vector<std::int64_t> expect(32);
    for (int c = 0; c < 4; ++c) {
      std::vector<std::int64_t> words(32);
      for (int i = 0; i < 32; ++i) {
        words[i] = static_cast<std::int64_t>(rng.next());
        expect[i] = c == 0 ? words[i] : reduce_word(op, expect[i], words[i]);
      }
      inputs.push_back(reduce_packet(3, 5, op, false, words));
    }
    Packet* result = nullptr;
    for (int c = 0; c < 4; ++c) {
      const auto out = reducer.add(&inputs[c], row, 10);
      EXPECT_EQ(out.consumed, c == 0 ? nullptr : &inputs[c]);
      if (c < 3) {
        EXPECT_EQ(out.result, nullptr) << "finished after " << c + 1 << " of 4";
        EXPECT_EQ(reducer.busy(3), 1);
      }
      result = out.result;
    }
    ASSERT_EQ(result, &inputs[0]);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(word(result->data[i / 2], i % 2), expect[i]) << i;
    EXPECT_EQ(reducer.busy(3), 0);  // the slot is free again
  }
}

TEST(Reducer, RejectsContributionsThatDisagree) {
  TreeRow row;
  row.member = row.pe = true;
  row.dir_sum = 1;
  row.dirs = 1;
  Reducer reducer;
  Packet a = reduce_packet(0, 0, Reduction::Sum, false, {1, 2});
  Packet b = reduce_packet(0, 0, Reduction::Max, false, {1, 2});
  reducer.add(&a, row, 10);
  EXPECT_THROW(reducer.add(&b, row, 11), ModelError);
}

TEST(CreditBlock, SixteenUpCreditsAndEightPerCreditPacket) {
  CreditBlock c;
  for (int i = 0; i < 16; ++i) {
    ASSERT_TRUE(c.can_send_up(2));
    c.sent_up(2);
  }
  EXPECT_FALSE(c.can_send_up(2));
  EXPECT_TRUE(c.can_send_up(3));  // per tree
  c.credit_from_parent(2);
  for (int i = 0; i < 8; ++i) c.sent_up(2);
  EXPECT_FALSE(c.can_send_up(2));
}

TEST(CreditBlock, CreditToChildrenEveryEightResultsOfATree) {
  CreditBlock c;
  for (int i = 1; i <= 24; ++i) EXPECT_EQ(c.result_left(1, 100), i % 8 == 0) << i;
  EXPECT_FALSE(c.result_left(0, 100));  // another tree counts on its own
}

TEST(CreditBlock, WhatIfFlowControlFromItsKeys) {
  CollectiveParams params;
  params.reduces_in_flight = 4;
  params.credit_batch = 2;
  params.report_results = 3;
  params.report_cycles = 100;
  CreditBlock c(params);
  for (int i = 0; i < 4; ++i) c.sent_up(0);
  EXPECT_FALSE(c.can_send_up(0));
  c.credit_from_parent(0);
  EXPECT_EQ(c.up_credits(0), 2);
  EXPECT_FALSE(c.result_left(1, 50));
  EXPECT_TRUE(c.result_left(1, 60));  // every 2 results a credit packet
  EXPECT_EQ(c.report_deadline(), 150);
  EXPECT_FALSE(c.report_due(149));
  EXPECT_TRUE(c.report_due(150));
  c.result_left(1, 70);
  EXPECT_TRUE(c.report_due(70));  // the third result
}

TEST(CreditBlock, ReportEvery128ResultsOrAfter4096Cycles) {
  CreditBlock c;
  EXPECT_EQ(c.report_deadline(), kNever);
  c.result_left(0, 1000);
  EXPECT_FALSE(c.report_due(1000));
  EXPECT_EQ(c.report_deadline(), 1000 + 4096);
  EXPECT_TRUE(c.report_due(1000 + 4096));
  auto counts = c.take_report();
  EXPECT_EQ(counts[0], 1u);
  EXPECT_EQ(c.report_deadline(), kNever);
  for (int i = 0; i < 127; ++i) c.result_left(i % 16, 2000);
  EXPECT_FALSE(c.report_due(2000));
  c.result_left(5, 2000);
  EXPECT_TRUE(c.report_due(2000));
  counts = c.take_report();
  EXPECT_EQ(counts[5], 8u + 1u);  // completed counts keep growing across reports
  Packet p;
  pack_report(counts, p);
  EXPECT_EQ(unpack_report(p), counts);
}

// A 2x2x2 torus, tree from node 0; node 7 = (1,1,1) is a leaf.
class PeGroupTest : public ::testing::Test {
 protected:
  PeGroupTest() : torus({2, 2, 2}), tree(build_dimension_order_tree(torus, 0, 0, {})) {
    trees.fill(nullptr);
    trees[0] = &tree;
  }
  Packet* make(PacketKind kind, NodeId src) {
    Packet* p = pool.acquire();
    p->header.kind = kind;
    p->header.src = src;
    p->header.data_flits = 16;
    return p;
  }
  // What `g` does by itself up to cycle `until`: results handed off, reports.
  void run_until(PeGroup& g, Cycle until) {
    while (g.next_timer() <= until) g.on_timer(g.next_timer(), out);
  }
  Torus torus;
  Tree tree;
  std::array<const Tree*, kMaxTrees> trees{};
  CollectiveParams params;
  PacketPool pool;
  std::vector<CollectiveSend> out;
};

TEST_F(PeGroupTest, BroadcastGoesDownAtTheRootAndUpAsARequestElsewhere) {
  PeGroup root(0, trees, params, pool, true), leaf(7, trees, params, pool, true);
  root.accept(make(PacketKind::Broadcast, 0), true, 100, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].toward, Toward::Down);
  EXPECT_EQ(out[0].ready, 100u + params.route_cycles + params.broadcaster_cycles);
  out.clear();
  leaf.accept(make(PacketKind::Broadcast, 7), true, 100, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].toward, Toward::Up);
  EXPECT_EQ(out[0].packet->header.kind, PacketKind::BroadcastRequest);
}

TEST_F(PeGroupTest, LeafSendsItsContributionUpAfterTheReducer) {
  PeGroup leaf(7, trees, params, pool, true);
  Packet* p = make(PacketKind::Reduce, 7);
  p->header.op = ReduceOp{Reduction::Sum, true}.encode();
  leaf.accept(p, true, 50, out);
  EXPECT_TRUE(out.empty());  // it leaves when the Reducer hands it off
  const Cycle ready =
      50u + params.route_cycles + params.reducer_cycles + 16u * params.reducer_flit_cycles;
  EXPECT_EQ(leaf.next_timer(), ready);
  leaf.on_timer(ready, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].toward, Toward::Up);
  EXPECT_EQ(out[0].ready, ready);
}

TEST_F(PeGroupTest, RootSendsAllreduceDownAndToItsProcessorAndReducePointToPoint) {
  PeGroup root(0, trees, params, pool, true);
  const int children = tree.rows[0].dir_sum;  // 3 on 2x2x2
  for (bool all : {true, false}) {
    out.clear();
    for (int c = 0; c <= children; ++c) {
      Packet* p = make(PacketKind::Reduce, static_cast<NodeId>(c));
      p->header.reduce_id = all ? 0 : 1;
      p->header.dst = 5;
      p->header.op = ReduceOp{Reduction::Max, all}.encode();
      root.accept(p, c == 0, 10, out);
      EXPECT_TRUE(out.empty());
    }
    run_until(root, 1000);
    if (all) {
      ASSERT_EQ(out.size(), 2u);
      EXPECT_EQ(out[0].toward, Toward::Pe);
      EXPECT_EQ(out[1].toward, Toward::Down);
      EXPECT_EQ(out[1].packet->header.kind, PacketKind::AllreduceResult);
    } else {
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].toward, Toward::Point);
      EXPECT_EQ(out[0].packet->header.kind, PacketKind::ReduceResult);
      EXPECT_EQ(out[0].packet->header.dst, 5u);
    }
  }
}

TEST_F(PeGroupTest, ResultsWaitForUpCreditsAndTheParentsCreditReleasesThem) {
  PeGroup leaf(7, trees, params, pool, true);
  int up = 0;
  for (int i = 0; i < 20; ++i) {
    Packet* p = make(PacketKind::Reduce, 7);
    p->header.reduce_id = static_cast<std::uint8_t>(i % 16);
    leaf.accept(p, true, 10, out);
  }
  run_until(leaf, 1000);
  for (const auto& s : out) up += s.toward == Toward::Up ? 1 : 0;
  EXPECT_EQ(up, 16);  // the 17th to 20th wait
  out.clear();
  Packet* credit = make(PacketKind::UpCredit, 3);
  leaf.accept(credit, false, 500, out);
  EXPECT_EQ(out.size(), 4u);
}

// Up-credits go down to the children; the count of completed reduces goes to the processor as a
// packet kind of its own.
TEST_F(PeGroupTest, ReportsToTheProcessorAreReduceReportsNotUpCredits) {
  PeGroup leaf(7, trees, params, pool, true);
  Packet* p = make(PacketKind::Reduce, 7);
  leaf.accept(p, true, 10, out);  // a leaf's own contribution completes its reduce: it goes up
  run_until(leaf, 100);
  ASSERT_EQ(out.size(), 1u);
  out.clear();
  leaf.on_timer(10 + 4096 + 1000, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].toward, Toward::Pe);
  EXPECT_EQ(out[0].packet->header.kind, PacketKind::ReduceReport);
  EXPECT_EQ(unpack_report(*out[0].packet)[0], 1u);  // tree 0: one reduce completed
}

TEST_F(PeGroupTest, ParentCreditsItsChildrenAfterEightResults) {
  // Node 1 = (1,0,0) has the children (1,1,0) and (1,0,1): 3 contributions per reduce.
  const TreeRow& r = tree.rows[1];
  ASSERT_EQ(r.dir_sum, 2);
  PeGroup mid(1, trees, params, pool, true);
  int credits = 0;
  for (int i = 0; i < 16; ++i) {
    for (int c = 0; c < 3; ++c) {
      Packet* p = make(PacketKind::Reduce, 1);
      p->header.reduce_id = static_cast<std::uint8_t>(i);
      mid.accept(p, c == 0, 10, out);
    }
  }
  run_until(mid, 10000);
  for (const auto& s : out) {
    if (s.packet->header.kind == PacketKind::UpCredit) {
      EXPECT_EQ(s.toward, Toward::Down);
      ++credits;
    }
  }
  EXPECT_EQ(credits, 2);  // after the 8th and the 16th result
}

}  // namespace
}  // namespace angara
