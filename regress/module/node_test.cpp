// The node end to end: CPU programs exchanging messages through host, PCIe endpoint and torus.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <map>

#include "platform/experiments/node_experiment.h"
#include "platform/machine/node_machine.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::IsolatedError;
using test::run_isolated;

Config machine(std::vector<int> dims, SimMode mode) {
  Config c;
  c.topology.dims = std::move(dims);
  c.sim.mode = mode;
  c.sim.progress = false;
  return c;
}

std::vector<std::byte> pattern(std::size_t bytes, int seed) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = static_cast<std::byte>((i * 31 + seed) & 0xff);
  return v;
}

Task ping(MessageChannel& ch, NetAddr peer, std::size_t bytes, int reps, Cycle& total) {
  CpuCore& cpu = ch.host().core();
  const auto out = pattern(bytes, 1);
  std::vector<std::byte> in;
  for (int i = 0; i < reps; ++i) {
    const Cycle t0 = cpu.local_time();
    co_await send_all(ch, peer, out);
    std::vector<std::byte> piece;
    in.clear();
    while (in.size() < bytes) {  // longer than one message: it comes back in pieces
      co_await receive_copy(ch, piece);
      in.insert(in.end(), piece.begin(), piece.end());
    }
    total += cpu.local_time() - t0;
    if (in != out) throw std::runtime_error("the pong differs from the ping");
  }
}

// Echoes every message from its fragments in the receive ring (zero copy), then releases it.
Task pong(MessageChannel& ch, NetAddr peer, std::size_t bytes, int reps) {
  for (int i = 0; i < reps; ++i) {
    for (std::size_t got = 0; got < bytes;) {
      auto message = co_await ch.recv();
      if (!message) {
        co_await ch.readable();
        continue;
      }
      got += message->bytes;
      co_await send_all(ch, peer,
                        {message->fragments.begin(), message->fragments.begin() + message->count});
      co_await ch.recv_complete();
    }
  }
}

TEST(Node, PingPongCarriesTheBytesBothWays) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (std::size_t bytes : {8u, 256u, 4096u, 10000u}) {
      const auto r = run_isolated([&] {
        NodeMachine m(machine({4, 4}, mode));
        Cycle total = 0;
        m.load(0, ping(m.host(0).channel(0), {1, 0}, bytes, 5, total));
        m.load(1, pong(m.host(1).channel(0), {0, 0}, bytes, 5));
        m.run();
        return nlohmann::json{{"half", static_cast<double>(total) / 10.0}};
      });
      EXPECT_GT(r["half"].get<double>(), 0);
    }
  }
}

}  // namespace
}  // namespace angara

namespace angara {
namespace {

Config bench(std::vector<int> dims, SimMode mode, WorkloadKind kind, std::vector<int> sizes,
             int messages) {
  Config c = machine(std::move(dims), mode);
  c.workload.kind = kind;
  c.workload.sizes = std::move(sizes);
  c.workload.messages = messages;
  return c;
}

nlohmann::json run_bench(const Config& c) {
  return run_isolated([&] { return nlohmann::json(to_json(run_message_benchmark(c))); });
}

TEST(PingPong, HalfRoundTripAtZeroLoadIsTheDocumentedSumOfItsParts) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (const auto& [dims, peer] : std::vector<std::pair<std::vector<int>, std::vector<int>>>{
             {{4, 4}, {1, 0}}, {{8, 8, 4}, {4, 3, 2}}}) {
      Config c = bench(dims, mode, WorkloadKind::PingPong, {8, 64, 200, 256}, 3);
      c.workload.peer = peer;
      const auto r = run_bench(c);
      for (const auto& size : r["sizes"]) {
        const Cycle expected =
            message_one_way_cycles(c.node, c.pcie, c.fabric(), r["hops"], size["bytes"]);
        EXPECT_DOUBLE_EQ(size["half_rtt_ns"].get<double>(),
                         static_cast<double>(expected) * c.router.cycle_ns())
            << "mode " << static_cast<int>(mode) << ", " << size["bytes"] << " B, " << r["hops"]
            << " hops";
      }
    }
  }
}

// r(L) <= B/L everywhere; with buffers that cover the link's round trip (LT has no buffers; AT
// with 128-flit VCs) a stream of 4 KiB messages runs at the narrowest rate (PCIe here).
TEST(MsgRate, NeverExceedsTheNarrowestRateAndSaturatesAtIt) {
  for (SimMode mode : {SimMode::Lt, SimMode::At}) {
    Config c = bench({4, 4}, mode, WorkloadKind::MsgRate, {8, 256, 1024, 4096}, 300);
    c.router.buffer_flits = 128;
    const auto r = run_bench(c);
    for (const auto& size : r["sizes"]) {
      EXPECT_LE(size["bandwidth_gbit_s"].get<double>(), size["bound_gbit_s"].get<double>())
          << size["bytes"] << " B";
    }
    const auto& large = r["sizes"].back();
    EXPECT_GE(large["bandwidth_gbit_s"].get<double>(), 0.97 * large["bound_gbit_s"].get<double>());
  }
}

Task send_twice(MessageChannel& ch, NetAddr dst, std::vector<std::size_t>& taken) {
  const std::vector<std::byte> big(10000), small(100);
  taken.push_back(co_await ch.send(dst, big));    // one message at most
  taken.push_back(co_await ch.send(dst, small));  // the send buffer is full: nothing
  co_await ch.room_for(small.size());
  taken.push_back(co_await ch.send(dst, small));
}

Task drain(MessageChannel& ch, int messages) {
  std::vector<std::byte> in;
  for (int i = 0; i < messages; ++i) co_await receive_copy(ch, in);
}

TEST(MessageApi, SendTakesAPrefixAndNothingWhenTheBufferIsFull) {
  const auto r = run_isolated([] {
    Config c = machine({4, 4}, SimMode::At);
    c.node.tx_buffer_bytes = 4096;
    NodeMachine m(c);
    std::vector<std::size_t> taken;
    m.load(0, send_twice(m.host(0).channel(0), {5, 1}, taken));
    m.load(5, drain(m.host(5).channel(1), 2));
    m.run();
    return nlohmann::json(taken);
  });
  EXPECT_EQ(r, nlohmann::json({4096, 0, 100}));
}

Task send_each(MessageChannel& ch, NetAddr dst, std::vector<std::vector<std::byte>> messages) {
  for (const auto& m : messages) co_await send_all(ch, dst, m);
}

// The second message does not fit before the ring's end: it comes in two fragments.
Task receive_fragments(MessageChannel& ch, std::vector<int>& counts,
                       std::vector<std::vector<std::byte>>& got) {
  while (got.size() < 2) {
    auto message = co_await ch.recv();
    if (!message) {
      co_await ch.readable();
      continue;
    }
    counts.push_back(message->count);
    got.emplace_back(message->bytes);
    message->copy_to(got.back());
    co_await ch.recv_complete();
  }
}

TEST(MessageApi, AMessageWrappingAroundTheRingComesInTwoFragments) {
  const auto r = run_isolated([] {
    Config c = machine({2, 2}, SimMode::Lt);
    c.node.rx_ring_bytes = 4112;
    const std::vector<std::vector<std::byte>> sent = {pattern(3000, 1), pattern(3000, 2)};
    NodeMachine m(c);
    std::vector<int> counts;
    std::vector<std::vector<std::byte>> got;
    m.load(1, send_each(m.host(1).channel(0), {0, 0}, sent));
    m.load(0, receive_fragments(m.host(0).channel(0), counts, got));
    m.run();
    return nlohmann::json{{"counts", counts}, {"intact", got == sent}};
  });
  EXPECT_EQ(r["counts"], nlohmann::json({1, 2}));
  EXPECT_TRUE(r["intact"].get<bool>());
}

// Three senders, messages of 1 to 3 packets; each sender's messages must come in order.
TEST(MessageApi, MessagesFromOneSenderArriveInTheOrderSent) {
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    const auto r = run_isolated([mode] {
      NodeMachine m(machine({4, 4, 2}, mode));
      const std::vector<NodeId> senders = {1, 13, 30};
      for (NodeId s : senders) {
        std::vector<std::vector<std::byte>> messages;
        for (int i = 0; i < 40; ++i) {
          auto bytes = pattern(static_cast<std::size_t>(8 + (i * 97 + s * 31) % 700), i);
          bytes[0] = static_cast<std::byte>(i);
          messages.push_back(bytes);
        }
        m.load(s, send_each(m.host(s).channel(0), {0, 1}, messages));
      }
      std::map<NodeId, std::vector<int>> order;
      auto receiver = [&order](MessageChannel& ch) -> Task {
        std::vector<std::byte> in;
        for (int i = 0; i < 120; ++i) {
          NetAddr from;
          co_await receive_copy(ch, in, &from);
          order[from.node].push_back(std::to_integer<int>(in[0]));
        }
      };
      m.load(0, receiver(m.host(0).channel(1)));
      m.run();
      nlohmann::json j;
      for (const auto& [node, seen] : order) j[std::to_string(node)] = seen;
      return j;
    });
    std::vector<int> in_order(40);
    for (int i = 0; i < 40; ++i) in_order[i] = i;
    for (const char* s : {"1", "13", "30"}) EXPECT_EQ(r[s].get<std::vector<int>>(), in_order) << s;
  }
}

Task complete_without_receive(MessageChannel& ch) {
  co_await ch.recv_complete();
}
Task send_nowhere(MessageChannel& ch) {
  const std::byte b[8]{};
  co_await ch.send({99, 0}, b);
}

TEST(MessageApi, MisuseIsAnErrorNamingTheNodeAndTheRule) {
  for (int which = 0; which < 2; ++which) {
    try {
      run_isolated([which] {
        NodeMachine m(machine({4, 4}, SimMode::At));
        MessageChannel& ch = m.host(3).channel(1);
        m.load(3, which == 0 ? complete_without_receive(ch) : send_nowhere(ch));
        m.run();
        return nlohmann::json{};
      });
      FAIL() << "expected an error";
    } catch (const IsolatedError& e) {
      EXPECT_EQ(e.type(), "ModelError");
      const std::string what = e.what();
      EXPECT_NE(what.find("node 3 channel 1"), std::string::npos) << what;
      EXPECT_NE(what.find(which == 0 ? "recv_complete without a received message"
                                     : "send to node 99 channel 0: no such address"),
                std::string::npos)
          << what;
    }
  }
}

TEST(MessageApi, ProgramsWaitingForMessagesThatNeverComeAreADeadlockNamingThem) {
  try {
    run_isolated([] {
      NodeMachine m(machine({4, 4}, SimMode::Lt));
      m.load(6, drain(m.host(6).channel(0), 1));
      m.run();
      return nlohmann::json{};
    });
    FAIL() << "expected an error";
  } catch (const IsolatedError& e) {
    EXPECT_NE(std::string(e.what()).find("wait for messages that never come: 6 (2,1)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace angara
