// Thousands of random packets through the VCUp buffers of one router's eight direction ports (a
// 4-D torus), the model's RouterCore deciding and the RTL beside every port behind its
// transactor, which compares every output in every cycle. The router's 16 tree rows are random
// (root or not, processor or transit, any down directions, any up direction); the packets are
// random in kind (reduce, credit, broadcast request, broadcast, allreduce result), tree, source
// (this node too) and length (1..17 flits); upstream links send as their credits allow, VCDown
// packets share the same links and crossbar inputs, and the credits of the router's outputs come
// back late now and then, so copies wait with their packets queued behind them. Built once with
// the shipped RTL (which must pass) and once per deliberately wrong variant
// (ANGARA_RTL_WRONG_SIGNAL: which must be caught, the message naming that signal, the cycle and
// both values). Each runs twice: the RTL checked against the router's timing, and driving it
// (rtl.vcup = "drive"), where the shipped RTL must give every grant and credit of the checked
// run.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <vector>

#include <systemc>

#include "collectives/rtl/rtl_seed.h"
#include "collectives/rtl/rtl_vcup.h"
#include "collectives/subnet/collective_node.h"
#include "models/core/packet_ledger.h"
#include "models/core/rng.h"
#include "models/router/at_switch.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

constexpr int kPackets = 6000;  // through VCUp; as many again through VCDown beside them
constexpr std::uint64_t kSeed = 22;

// Node 0's rows: every tree random (the other nodes' rows are not read).
std::vector<Tree> random_trees(Rng& rng, int nodes, int directions) {
  std::vector<Tree> trees;
  for (int id = 0; id < kMaxTrees; ++id) {
    Tree t;
    t.id = id;
    t.rows.resize(static_cast<std::size_t>(nodes));
    TreeRow& row = t.rows[0];
    row.member = true;
    row.is_root = rng.uniform(3) == 0;
    if (!row.is_root)
      row.to_root = Direction::from_index(static_cast<int>(rng.uniform(directions)));
    row.dirs = static_cast<std::uint8_t>(rng.uniform(1U << directions));
    if (rng.uniform(4) == 0) row.dirs = 0;  // a leaf
    row.dir_sum = std::popcount(row.dirs);
    row.pe = row.dir_sum == 0 || rng.uniform(4) != 0;
    trees.push_back(std::move(t));
  }
  return trees;
}

FabricParams params() {
  FabricParams p;
  p.collective.table_cycles = 2;  // not the default 1: the stages' timers must count
  p.collective.analysis_cycles = 3;
  return p;
}

struct Driver : sc_core::sc_module {
  Topology topology{TopologyParams{.dims = {3, 3, 3, 3}}};
  const Torus& torus = *topology.torus();
  FabricParams fabric = params();
  RouterShared shared{topology, fabric, kSeed};
  FabricClock clock{fabric.router.clock_mhz};
  PacketPool pool;
  Rng rng{kSeed, 0};
  std::vector<Tree> trees;
  TreeSet set{};
  std::unique_ptr<RouterCore> core;
  std::unique_ptr<AtSwitch> at;  // AT's switch over it, as RouterAt holds it
  RtlVcUpStats stats;
  std::vector<CreditCounter> up_credits;  // the upstream's of VCUp, per port
  std::unique_ptr<RtlVcUp> rtl;
  bool drives;
  nlohmann::json result;
  // Of every grant, in order; of every credit return of VCUp, in any order (the router returns
  // them when it grants a last copy, a driving RTL when it frees the space).
  std::uint64_t grants_digest = 0, credits_digest = 0;

  // FNV-1a over one event's numbers, from `seed`.
  static std::uint64_t hash(std::uint64_t seed, std::initializer_list<std::uint64_t> values) {
    for (std::uint64_t v : values) seed = (seed ^ v) * 0x100000001b3ULL;
    return seed;
  }
  void credit(PortId port, int flits, Cycle usable) {
    up_credits[port].add(usable, flits);
    credits_digest +=
        hash(0xcbf29ce484222325ULL, {port, static_cast<std::uint64_t>(flits), usable});
  }

  SC_HAS_PROCESS(Driver);
  Driver(const sc_core::sc_module_name& name, bool drive)
      : sc_core::sc_module(name), drives(drive) {
    trees = random_trees(rng, torus.node_count(), torus.direction_count());
    for (const Tree& t : trees) set[static_cast<std::size_t>(t.id)] = &t;
    core = std::make_unique<RouterCore>(
        0, shared, std::make_unique<CollectiveNode>(0, set, fabric.collective, pool, true), pool);
    at = std::make_unique<AtSwitch>(*core);
    rtl = std::make_unique<RtlVcUp>("rtl_vcup", "node 0", *core, set, clock, stats,
                                    flop_seed(kSeed, 0, RtlBlock::VcUp), drives);
    if (drives) {
      at->set_vcup_driver(rtl.get());
      // The router allocates every cycle here, so it needs no wake-up.
      rtl->attach({[](Cycle) {}, [this](PortId port, int flits,
                                        Cycle at_cycle) { credit(port, flits, at_cycle); }});
    }
    SC_THREAD(run);
  }

  Packet* random_packet(bool up, std::uint64_t seq) {
    static constexpr PacketKind kUp[] = {PacketKind::Reduce, PacketKind::BroadcastRequest,
                                         PacketKind::UpCredit, PacketKind::Broadcast,
                                         PacketKind::AllreduceResult};
    Packet* p = pool.acquire();
    p->header = {};
    p->header.kind = up ? kUp[rng.uniform(5)] : PacketKind::Broadcast;
    p->header.tree_id = static_cast<std::uint8_t>(rng.uniform(kMaxTrees));
    p->header.src = rng.uniform(4) == 0 ? 0 : static_cast<NodeId>(rng.uniform(81));
    p->header.data_flits =
        static_cast<std::uint8_t>(rng.uniform(3) == 0 ? kMaxDataFlits : rng.uniform(17));
    p->header.vc = up ? core->vc_up() : core->vc_down();
    p->header.set_sequence(seq);
    return p;
  }

  void run() {
    const int ports = torus.direction_count();
    const auto& link = shared.link;
    std::vector<Cycle> link_free(static_cast<std::size_t>(ports), 0);
    std::vector<CreditCounter> down_credits;  // the upstream's, per port
    for (int p = 0; p < ports; ++p) {
      up_credits.emplace_back(fabric.collective.buffer_flits);
      down_credits.emplace_back(fabric.collective.buffer_flits);
    }
    std::vector<Grant> grants;
    std::uint64_t seq = 1, sent_up = 0, copies_up = 0, late_credits = 0;
    Cycle now = 0, last_grant = 0;
    while (sent_up < kPackets || now < last_grant + 1000) {
      wait(clock.period());
      now = clock.now();
      // Each upstream link sends a packet now and then, if the VC behind it has room.
      for (int p = 0; p < ports && sent_up < kPackets && now > 10; ++p) {
        if (link_free[p] > now || rng.uniform(3) != 0) continue;
        const bool up = rng.uniform(3) != 0;
        Packet* packet = random_packet(up, seq++);
        CreditCounter& credits = up ? up_credits[p] : down_credits[p];
        const int flits = packet->wire_flits();
        if (credits.at(now) < flits) {
          pool.release(packet);
          continue;
        }
        credits.consume(flits);
        packet->head_at = now + link.latency + link.serialization(1);
        packet->tail_at = now + link.serialization(flits) + link.latency;
        link_free[p] = now + link.serialization(flits);
        const auto port = static_cast<PortId>(p);
        rtl->arrival(port, *packet);  // as RouterAt: before routing
        at->receive(port, *packet);
        if (up) ++sent_up;
      }
      grants.clear();
      at->allocate(now, grants);
      for (const Grant& g : grants) {
        rtl->grant(g);
        grants_digest =
            hash(grants_digest, {g.in_port, g.in_vc, g.out_port, g.out_vc, g.start, g.tail_out});
        if (g.in_port < ports && g.in_vc == core->vc_up()) ++copies_up, last_grant = now;
        if (g.frees_input && g.in_port < ports && !at->driven(g.in_port, g.in_vc)) {
          const Cycle at_cycle = g.tail_out + link.latency;
          if (g.in_vc == core->vc_up()) {
            credit(g.in_port, g.packet->wire_flits(), at_cycle);
          } else {
            down_credits[g.in_port].add(at_cycle, g.packet->wire_flits());
          }
        }
        if (g.out_port == core->pegroup_port()) continue;  // stays with the core, never run
        // The buffer behind the output gives its space back, late now and then.
        Cycle back = g.tail_out + core->timing(g.out_port).latency;
        if (rng.uniform(8) == 0) back += rng.uniform(400), ++late_credits;
        at->return_credits(g.out_port, g.out_vc, g.packet->wire_flits(), back);
        pool.release(g.packet);
      }
    }
    result = {{"packets_up", sent_up},           {"copies_up", copies_up},
              {"late_credits", late_credits},    {"cycles", now},
              {"rtl_cycles", stats.cycles},      {"rtl_packets", stats.packets},
              {"rtl_copies", stats.copies},      {"rtl_frees", stats.frees},
              {"rtl_queued", stats.queued},      {"grants_digest", grants_digest},
              {"credits_digest", credits_digest}};
    sc_core::sc_stop();
  }
};

nlohmann::json run_random(bool drives) {
  return test::run_isolated([drives] {
    Driver driver("driver", drives);
    sc_core::sc_start();
    return driver.result;
  });
}

#ifndef ANGARA_RTL_WRONG_SIGNAL
TEST(RtlVcUp, ThousandsOfRandomPacketsEqualTheModelCycleForCycle) {
  const nlohmann::json r = run_random(false);
  std::cout << "random packets through the model's and the RTL's VCUp: " << r.dump() << '\n';
  EXPECT_EQ(r["rtl_packets"], kPackets);  // every packet's beats went in
  EXPECT_EQ(r["rtl_frees"], kPackets);    // and its space came free in the model's cycle
  EXPECT_EQ(r["rtl_copies"], r["copies_up"]);
  EXPECT_GT(r["copies_up"].get<int>(), kPackets);  // some packets had several copies
  EXPECT_GT(r["late_credits"].get<int>(), 100);
  // Packets came in behind others: their table reads and analyses overlapped the issue ahead.
  EXPECT_GT(r["rtl_queued"].get<int>(), kPackets / 4);
  EXPECT_GT(r["rtl_cycles"].get<int>(), 10000);
}

TEST(RtlVcUp, DrivingTheRouterItGivesTheCheckedRunsGrantsAndCredits) {
  const nlohmann::json checked = run_random(false);
  const nlohmann::json driving = run_random(true);
  std::cout << "the RTL's VCUp driving the router: " << driving.dump() << '\n';
  EXPECT_EQ(driving, checked);
}
#else
TEST(RtlVcUp, AWrongRtlIsCaughtNamingTheSignalTheCycleAndBothValues) {
  try {
    run_random(false);
    FAIL() << "the wrong RTL passed";
  } catch (const test::IsolatedError& e) {
    const std::string what = e.what();
    std::cout << "wrong RTL (" << ANGARA_RTL_WRONG << "): " << what << '\n';
    EXPECT_NE(what.find(" RTL: " ANGARA_RTL_WRONG_SIGNAL " at cycle "), std::string::npos) << what;
    EXPECT_NE(what.find(": model "), std::string::npos) << what;
    EXPECT_NE(what.find(", RTL "), std::string::npos) << what;
  }
}

#ifdef ANGARA_RTL_WRONG_DRIVING
// Driving, a wrong block's timing is its own; what it gets wrong beyond timing is still caught.
TEST(RtlVcUp, AWrongRtlDrivingIsCaughtNamingTheSignal) {
  try {
    run_random(true);
    FAIL() << "the wrong RTL passed";
  } catch (const test::IsolatedError& e) {
    const std::string what = e.what();
    std::cout << "wrong RTL driving (" << ANGARA_RTL_WRONG << "): " << what << '\n';
    EXPECT_NE(what.find(" RTL: " ANGARA_RTL_WRONG_DRIVING " at cycle "), std::string::npos) << what;
  }
}
#endif
#endif

}  // namespace
}  // namespace angara
