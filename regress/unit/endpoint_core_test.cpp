// EndpointCore without SystemC, through the one API both shells use (inject, next_wakeup,
// return_credits, deliver): serialization on the injection channel, the VC choice, credits spent
// and returned, running ahead to a horizon without flow control, when the shell is asked to wake,
// and the sink.

#include "models/endpoint/endpoint_core.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <vector>

namespace angara {
namespace {

using FlowControl = EndpointCore::FlowControl;

// Hands out the requests it was given, in order.
class Script : public TrafficSource {
 public:
  std::deque<PacketRequest> requests;

  std::optional<PacketRequest> next() override {
    if (requests.empty()) return std::nullopt;
    PacketRequest r = requests.front();
    requests.pop_front();
    return r;
  }
};

class Listener : public TrafficObserver {
 public:
  int created_count = 0;
  std::vector<NodeId> on_the_way_to;
  std::vector<std::pair<std::uint64_t, NodeId>> delivered_seq_at;

  void created(const PacketRequest& /*request*/, NodeId /*at*/) override { ++created_count; }
  void delivered(const Packet& packet, NodeId at) override {
    delivered_seq_at.push_back({packet.header.sequence(), at});
  }
  void on_the_way(NodeId to) override { on_the_way_to.push_back(to); }
};

// Endpoint channel of Table 1: latency 0, S(1) = 1, S(5) = 5, S(17) = 15 cycles.
struct Bench {
  FabricParams params;
  Script source;
  Listener observer;
  PacketLedger ledger;
  PacketPool pool;
  std::unique_ptr<EndpointCore> core;

  // Requests of `data_flits` data flits to node 5, created at `created`.
  void request(Cycle created, int data_flits = 16, PacketKind kind = PacketKind::Write) {
    source.requests.push_back({5, data_flits, created, kind});
  }
  EndpointCore& start(NodeId id, FlowControl flow) {
    core = std::make_unique<EndpointCore>(id, source, observer, ledger, pool, params);
    core->set_flow_control(flow);
    return *core;
  }
  // One injection VC of 34 flits (room for two 17-flit packets), `packets` 17-flit requests
  // created at cycle 0.
  EndpointCore& start_with_two_packet_buffer(int packets, FlowControl flow) {
    params.router.vcs = 1;
    params.router.buffer_flits = 34;
    for (int i = 0; i < packets; ++i) request(0);
    return start(0, flow);
  }
};

TEST(EndpointCore, PacketsFollowOneAnotherOnTheInjectionChannel) {
  Bench b;
  b.request(0);
  b.request(0);
  b.request(0, 4);
  EndpointCore& e = b.start(3, FlowControl::Credits);
  Packet* p1 = e.inject(0, 1);
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(p1->head_at, 1u);
  EXPECT_EQ(p1->tail_at, 15u);
  EXPECT_EQ(p1->header.src, 3);
  EXPECT_EQ(p1->header.dst, 5);
  EXPECT_EQ(p1->header.sequence(), PacketLedger::sequence(3, 0));
  EXPECT_EQ(e.inject(0, 1), nullptr);  // the channel carries p1 until cycle 15
  EXPECT_EQ(e.next_wakeup(0), 15u);
  Packet* p2 = e.inject(15, 16);
  ASSERT_NE(p2, nullptr);
  EXPECT_EQ(p2->head_at, 16u);
  EXPECT_EQ(p2->tail_at, 30u);
  EXPECT_EQ(p2->header.sequence(), PacketLedger::sequence(3, 1));
  EXPECT_EQ(e.next_wakeup(15), 30u);
  Packet* p3 = e.inject(30, 31);
  ASSERT_NE(p3, nullptr);
  EXPECT_EQ(p3->tail_at, 35u);  // 5 flits
  EXPECT_EQ(e.next_wakeup(30), kNever);
  EXPECT_EQ(b.observer.created_count, 3);
  EXPECT_EQ(b.ledger.injected_count(), 3u);
}

// Dateline with 4 VCs: two sets of two classes. Point-to-point packets take the sets in turn,
// from class 0; a collective packet goes to the PEGroup FIFO (VC vcs) and takes no turn.
TEST(EndpointCore, PointToPointPacketsTakeTheVcSetsInTurn) {
  Bench b;
  b.params.router.deadlock = DeadlockScheme::Dateline;
  b.params.router.vcs = 4;
  b.request(0);
  b.request(0, 1, PacketKind::Broadcast);
  b.request(0);
  b.request(0);
  EndpointCore& e = b.start(0, FlowControl::Holds);
  std::vector<VcId> vcs;
  while (Packet* p = e.inject(0, 1000)) vcs.push_back(p->header.vc);
  EXPECT_EQ(vcs, (std::vector<VcId>{0, 4, 2, 0}));
}

// A 34-flit buffer takes two 17-flit packets; the third starts when credits come back.
TEST(EndpointCore, CreditsAreSpentOnInjectionAndReturnedByTheRouter) {
  Bench b;
  EndpointCore& e = b.start_with_two_packet_buffer(3, FlowControl::Credits);
  ASSERT_NE(e.inject(0, 1), nullptr);
  ASSERT_NE(e.inject(15, 16), nullptr);
  EXPECT_EQ(e.next_wakeup(15), kNever);       // no credits known to come
  EXPECT_EQ(e.inject(30, 31), nullptr);       // channel free, buffer full
  EXPECT_TRUE(e.return_credits(0, 17, 100));  // it waits for them
  EXPECT_EQ(e.next_wakeup(30), 100u);
  EXPECT_EQ(e.inject(99, 100), nullptr);
  Packet* p = e.inject(100, 101);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->head_at, 101u);
}

// LT without buffers: the same buffer, but packets go back to back up to the horizon, credits or
// not, each announced to the observer; the shell wakes when the next could start.
TEST(EndpointCore, WithoutFlowControlPacketsRunAheadToTheHorizon) {
  Bench b;
  EndpointCore& e = b.start_with_two_packet_buffer(8, FlowControl::None);
  std::vector<Cycle> starts;
  while (Packet* p = e.inject(0, 100)) starts.push_back(p->head_at - 1);
  EXPECT_EQ(starts, (std::vector<Cycle>{0, 15, 30, 45, 60, 75, 90}));
  EXPECT_EQ(b.observer.on_the_way_to, std::vector<NodeId>(7, 5));
  EXPECT_EQ(e.next_wakeup(0), 105u);
  EXPECT_EQ(e.inject(100, 200)->head_at, 106u);
}

// LT with buffers: the same buffer; packets run ahead of the kernel up to the horizon, each
// announced to the observer, and each waits for room known from when those before it left the
// router's buffer (released()); the shell wakes when the next could start.
TEST(EndpointCore, WithHoldsPacketsRunAheadToTheHorizonAsTheBufferMakesRoom) {
  Bench b;
  EndpointCore& e = b.start_with_two_packet_buffer(8, FlowControl::Holds);
  std::vector<Cycle> starts;
  Cycle left = 40;  // the router lets each packet go 40 cycles after the one before
  while (Packet* p = e.inject(0, 100)) {
    starts.push_back(p->head_at - 1);
    e.released(p->header.vc, left);
    left += 40;
  }
  // Two fit at once (0 and 15, back to back); the third waits until the first has left (40),
  // the fourth until the second has (80); the fifth could start at 120, past the horizon.
  EXPECT_EQ(starts, (std::vector<Cycle>{0, 15, 40, 80}));
  EXPECT_EQ(b.observer.on_the_way_to, std::vector<NodeId>(4, 5));
  EXPECT_EQ(e.next_wakeup(0), 120u);
  EXPECT_EQ(e.inject(120, 200)->head_at, 121u);
}

// With credits the shell takes each request when it is created; without, it is woken for one
// only when it could start.
TEST(EndpointCore, TheShellWakesAtCreationWithCreditsAndAtTheStartWithout) {
  for (FlowControl flow : {FlowControl::Credits, FlowControl::Holds, FlowControl::None}) {
    Bench b;
    b.request(0);
    b.request(10);
    EndpointCore& e = b.start(0, flow);
    const Cycle horizon = flow == FlowControl::Credits ? 1 : 5;
    ASSERT_NE(e.inject(0, horizon), nullptr);
    EXPECT_EQ(e.inject(0, horizon), nullptr);
    EXPECT_EQ(e.next_wakeup(0), flow == FlowControl::Credits ? 10u : 15u);
    EXPECT_EQ(b.observer.on_the_way_to.size(), flow == FlowControl::Credits ? 0u : 1u);
  }
}

TEST(EndpointCore, TheSinkChecksReportsAndRecyclesADeliveredPacket) {
  Bench b;
  b.request(0);
  EndpointCore& sender = b.start(5, FlowControl::Credits);
  Packet* p = sender.inject(0, 1);  // from node 5 to node 5: this endpoint is its sink too
  ASSERT_NE(p, nullptr);
  const std::uint64_t seq = p->header.sequence();
  sender.deliver(p);
  EXPECT_EQ(b.ledger.delivered_count(), 1u);
  ASSERT_EQ(b.observer.delivered_seq_at.size(), 1u);
  EXPECT_EQ(b.observer.delivered_seq_at[0], (std::pair<std::uint64_t, NodeId>{seq, 5}));
  EXPECT_EQ(b.pool.acquire(), p);  // back in the pool
}

// A full source queue stops taking the source's packets; they enter as packets leave, in order
// and with their creation cycles, so the queue never holds more than its limit.
TEST(EndpointCore, AFullSourceQueueLeavesTheSourceWaiting) {
  Bench b;
  for (int i = 0; i < 10; ++i) b.request(0);
  EndpointCore& e = b.start(3, FlowControl::None);
  e.limit_queue(3);
  EXPECT_FALSE(e.queue_capped());
  Packet* first = e.inject(0, 1);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(e.queue_capped());
  EXPECT_EQ(b.observer.created_count, 3);  // unbounded: all 10
  EXPECT_EQ(e.queued(), 2u);
  int sent = 1;
  for (Cycle now = 1; sent < 10 && now < 1000; ++now) {
    if (Packet* p = e.inject(now, now + 1)) {
      EXPECT_EQ(p->header.sequence(), PacketLedger::sequence(3, static_cast<std::uint64_t>(sent)));
      ++sent;
    }
    EXPECT_LE(e.queued(), 3u);
  }
  EXPECT_EQ(sent, 10);
  EXPECT_EQ(b.observer.created_count, 10);
}

}  // namespace
}  // namespace angara
