// Thousands of random reduces through two PEGroups side by side, one with the C++ Reducer and one
// with the RTL behind its transactor, fed the same packets in the same cycles: random trees (root
// or not, with or without a processor, 0..8 children), ReduceIds, operations and sizes, many
// reduces of a tree overlapping, results stalled beyond 16 in flight until the parent's credits
// come. Every send of the two must agree in kind, ids, direction and cycle, and every result's
// data word by word once the RTL has handed it off; the transactor checks the RTL's handshakes
// and hand-offs cycle by cycle on top. Built once with the shipped RTL (which must pass, checked
// and driving) and once per deliberately wrong variant (ANGARA_RTL_WRONG_SIGNAL: which must be
// caught, the message naming that signal, the cycle and both values).

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <bit>
#include <deque>
#include <iostream>
#include <memory>
#include <vector>

#include <systemc>

#include "collectives/rtl/rtl_reducer.h"
#include "collectives/rtl/rtl_seed.h"
#include "collectives/subnet/pe_group.h"
#include "models/core/packet_ledger.h"
#include "models/core/rng.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

constexpr int kReduces = 3000;
constexpr std::uint64_t kSeed = 22;

// One node's rows: every tree random, node 0 the only node.
std::vector<Tree> random_trees(Rng& rng) {
  std::vector<Tree> trees;
  for (int id = 0; id < kMaxTrees; ++id) {
    Tree t;
    t.id = id;
    TreeRow row;
    row.member = true;
    row.is_root = rng.uniform(3) == 0;
    if (!row.is_root) row.to_root = Direction::from_index(0);
    row.dirs = static_cast<std::uint8_t>(rng.uniform(256));
    row.dir_sum = std::popcount(row.dirs);
    row.pe = row.dir_sum == 0 || rng.uniform(4) != 0;  // a transit node has children
    t.rows.push_back(row);
    trees.push_back(t);
  }
  return trees;
}

struct Open {  // a reduce whose contributions are still being sent
  int tree = 0, reduce = 0, left = 0, flits = 0;
  std::uint8_t op = 0;
};

struct Pending {  // a result the two PEGroups sent, its data to compare once it is ready
  Packet* model = nullptr;
  Packet* rtl = nullptr;
  Cycle ready = 0;
};

SC_MODULE(Driver) {
  PacketPool model_pool, rtl_pool;
  FabricClock clock{500.0};
  CollectiveParams params;
  RtlReducerStats stats;
  std::vector<Tree> trees;
  TreeSet set{};
  std::unique_ptr<PeGroup> model, rtl;
  Rng rng{kSeed, 0};
  nlohmann::json result;
  std::uint64_t sends = 0, words = 0, reduces = 0, stalled = 0;

  SC_HAS_PROCESS(Driver);
  // `drives`: the RTL's timing drives its PEGroup (rtl.reducer = "drive"); else it is checked.
  Driver(const sc_core::sc_module_name& name, bool drives) : sc_core::sc_module(name) {
    trees = random_trees(rng);
    for (const Tree& t : trees) set[t.id] = &t;
    model = std::make_unique<PeGroup>(0, set, params, model_pool, true);
    rtl = std::make_unique<PeGroup>(
        0, set, params, rtl_pool, true,
        std::make_unique<RtlReducer>("rtl_reducer", "node 0", params, clock, stats,
                                     flop_seed(kSeed, 0, RtlBlock::Reducer), drives));
    SC_THREAD(run);
  }

  Packet* contribution(PacketPool & pool, const Open& o, const std::array<Flit, kMaxDataFlits>& d,
                       std::uint64_t seq) {
    Packet* p = pool.acquire();
    p->header.kind = PacketKind::Reduce;
    p->header.tree_id = static_cast<std::uint8_t>(o.tree);
    p->header.reduce_id = static_cast<std::uint8_t>(o.reduce);
    p->header.op = o.op;
    p->header.data_flits = static_cast<std::uint8_t>(o.flits);
    p->header.set_sequence(seq);
    p->data = d;
    return p;
  }

  void compare(const std::vector<CollectiveSend>& a, const std::vector<CollectiveSend>& b,
               Cycle now, std::deque<Pending>& pending) {
    if (a.size() != b.size()) {
      throw ModelError(fmt::format("cycle {}: the model sent {} packets, the RTL PEGroup {}", now,
                                   a.size(), b.size()));
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto& x = a[i];
      const auto& y = b[i];
      if (x.toward != y.toward || x.ready != y.ready || !(x.packet->header == y.packet->header)) {
        throw ModelError(fmt::format(
            "cycle {}: send {} differs: model ready {} toward {}, RTL "
            "PEGroup ready {} toward {}",
            now, i, x.ready, static_cast<int>(x.toward), y.ready, static_cast<int>(y.toward)));
      }
      ++sends;
      pending.push_back({x.packet, y.packet, x.ready});
    }
  }

  void settle(Cycle now, std::deque<Pending> & pending) {
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->ready > now) {
        ++it;
        continue;
      }
      for (int f = 0; f < it->model->header.data_flits; ++f) {
        if (!(it->model->data[f] == it->rtl->data[f])) {
          throw ModelError(fmt::format("cycle {}: result of tree {} reduce {} flit {} differs", now,
                                       it->model->header.tree_id, it->model->header.reduce_id, f));
        }
        words += kWordsPerFlit;
      }
      model_pool.release(it->model);
      rtl_pool.release(it->rtl);
      it = pending.erase(it);
    }
  }

  void run() {
    std::vector<Open> open;
    std::array<std::array<bool, kReducesPerTree>, kMaxTrees> busy{};
    std::array<int, kMaxTrees> waiting_up{};  // results sent up minus credits we gave back
    std::deque<Pending> pending;
    std::vector<CollectiveSend> a, b;
    std::uint64_t seq = 1;
    int started = 0;
    Cycle now = 0;
    const auto stalls = [&] {
      for (int w : waiting_up)
        if (w > 16) return true;
      return false;
    };
    while (started < kReduces || !open.empty() || !pending.empty() || stalls() ||
           model->next_timer() != kNever) {
      wait(clock.period());
      now = clock.now();
      settle(now, pending);
      a.clear();
      b.clear();
      if (model->next_timer() <= now || rtl->next_timer() <= now) {
        model->on_timer(now, a);
        rtl->on_timer(now, b);
      }
      // Start a reduce now and then: several of a tree overlap, up to its 16 slots.
      if (started < kReduces && open.size() < 24 && rng.uniform(4) == 0) {
        Open o;
        o.tree = static_cast<int>(rng.uniform(kMaxTrees));
        o.reduce = static_cast<int>(rng.uniform(kReducesPerTree));
        if (!busy[o.tree][o.reduce]) {
          const TreeRow& r = trees[o.tree].rows[0];
          o.left = (r.pe ? 1 : 0) + r.dir_sum;
          o.flits = static_cast<int>(rng.uniform(kMaxDataFlits + 1));
          o.op = ReduceOp{static_cast<Reduction>(rng.uniform(3)), rng.uniform(2) == 0}.encode();
          busy[o.tree][o.reduce] = true;
          open.push_back(o);
          ++started;
        }
      }
      // A contribution of a random open reduce, about as often as the Reducer can take them.
      if (!open.empty() && rng.uniform(9) == 0) {
        const std::size_t i = rng.uniform(open.size());
        Open& o = open[i];
        std::array<Flit, kMaxDataFlits> d{};
        for (auto& f : d) f = {rng.next(), rng.next()};
        model->accept(contribution(model_pool, o, d, seq), false, now + 1, a);
        rtl->accept(contribution(rtl_pool, o, d, seq), false, now + 1, b);
        ++seq;
        if (--o.left == 0) {
          busy[o.tree][o.reduce] = false;
          ++reduces;
          if (!trees[o.tree].rows[0].is_root) ++waiting_up[o.tree];
          open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
      // The parent's credit, late: results pile up beyond the 16 a tree may have in flight.
      for (int t = 0; t < kMaxTrees; ++t) {
        if (model->reduces_in_flight(t) != rtl->reduces_in_flight(t)) {
          throw ModelError(fmt::format("cycle {}: tree {} in flight: model {}, RTL {}", now, t,
                                       model->reduces_in_flight(t), rtl->reduces_in_flight(t)));
        }
        if (waiting_up[t] > 16) ++stalled;
        if (waiting_up[t] >= 8 &&
            rng.uniform(waiting_up[t] > 24 || started == kReduces ? 50 : 20000) == 0) {
          for (PeGroup* g : {model.get(), rtl.get()}) {
            PacketPool& pool = g == model.get() ? model_pool : rtl_pool;
            Packet* credit = pool.acquire();
            credit->header.kind = PacketKind::UpCredit;
            credit->header.tree_id = static_cast<std::uint8_t>(t);
            g->accept(credit, false, now + 1, g == model.get() ? a : b);
          }
          waiting_up[t] -= 8;
        }
      }
      compare(a, b, now, pending);
    }
    result = {{"reduces", reduces},
              {"sends", sends},
              {"words", words},
              {"stalled_tree_cycles", stalled},
              {"cycles", now},
              {"rtl_cycles", stats.cycles},
              {"rtl_heads", stats.heads},
              {"rtl_results", stats.results},
              {"rtl_words", stats.data_words}};
    sc_core::sc_stop();
  }
};

nlohmann::json run_random(bool drives = false) {
  return test::run_isolated([drives] {
    Driver driver("driver", drives);
    sc_core::sc_start();
    return driver.result;
  });
}

#ifndef ANGARA_RTL_WRONG_SIGNAL
void expect_every_reduce_compared(const nlohmann::json& r) {
  EXPECT_EQ(r["reduces"], kReduces);
  EXPECT_EQ(r["rtl_results"], kReduces);  // every reduce's hand-off checked
  EXPECT_GT(r["rtl_heads"].get<int>(), 2 * kReduces);
  EXPECT_GT(r["rtl_cycles"].get<int>(), 10000);
  EXPECT_GT(r["rtl_words"].get<int>(), 8 * kReduces);  // result words compared at hand-off
  EXPECT_GT(r["stalled_tree_cycles"].get<int>(), 0) << "no tree had more than 16 results up";
}

TEST(RtlReducer, ThousandsOfRandomReducesEqualTheModelCycleForCycle) {
  const nlohmann::json r = run_random();
  std::cout << "random reduces through the model and the RTL: " << r.dump() << '\n';
  expect_every_reduce_compared(r);
}

// Driving, the transactor checks values only: the PEGroups' sends, compared cycle by cycle, show
// that the RTL's own timing is the model's.
TEST(RtlReducer, DrivingThePEGroupTheShippedRtlGivesTheModelsSendsCycleForCycle) {
  const nlohmann::json r = run_random(true);
  std::cout << "random reduces through the model and the RTL driving: " << r.dump() << '\n';
  expect_every_reduce_compared(r);
}
#else
TEST(RtlReducer, AWrongRtlIsCaughtNamingTheSignalTheCycleAndBothValues) {
  try {
    run_random();
    FAIL() << "the wrong RTL passed";
  } catch (const test::IsolatedError& e) {
    const std::string what = e.what();
    std::cout << "wrong RTL (" << ANGARA_RTL_WRONG << "): " << what << '\n';
    EXPECT_NE(what.find("Reducer RTL: " ANGARA_RTL_WRONG_SIGNAL), std::string::npos) << what;
    EXPECT_NE(what.find(" at cycle "), std::string::npos) << what;
    EXPECT_NE(what.find(": model "), std::string::npos) << what;
    EXPECT_NE(what.find(", RTL "), std::string::npos) << what;
  }
}
#endif

}  // namespace
}  // namespace angara
