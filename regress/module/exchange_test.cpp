// Sending and receiving at once (Mailbox::exchange, as MPI_Sendrecv), and LT senders of a
// congested flow finishing when AT's, held back by flit-level flow control, do: with buffers by
// LT's own back-pressure, without them by pacing a sender by what gets through
// (TransmitEngine::reached).

#include <gtest/gtest.h>

#include <vector>

#include "collectives/software/software_collectives.h"
#include "platform/machine/node_machine.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::run_isolated;

std::vector<std::byte> pattern(std::size_t bytes, NodeId seed) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = static_cast<std::byte>((i * 31 + seed) & 0xff);
  return v;
}

Config machine(SimMode mode, int buffer_flits = 64) {
  Config c;
  c.router.buffer_flits = buffer_flits;
  c.topology.dims = {4, 4};
  c.sim.mode = mode;
  c.sim.progress = false;
  return c;
}

enum class Pattern { OneWay, SendThenReceive, Exchange };

// Nodes 0 and 1 move `bytes` one way (0 to 1) or both ways; returns when the last is done.
Task pair_program(NodeMachine& m, NodeId node, Pattern p, std::size_t bytes, Cycle& end,
                  bool& intact) {
  Mailbox mailbox(m.host(node).channel(0));
  const NodeId peer = 1 - node;
  const auto out = pattern(bytes, node);
  std::vector<std::byte> in;
  if (p == Pattern::Exchange) {
    std::vector<std::span<const std::byte>> pieces(1, out);
    co_await mailbox.exchange(peer, std::move(pieces), bytes, in);
  } else if (p == Pattern::SendThenReceive) {
    co_await mailbox.send(peer, out);
    co_await mailbox.receive_from(peer, bytes, in);
  } else if (node == 0) {
    co_await mailbox.send(peer, out);
  } else {
    co_await mailbox.receive_from(peer, bytes, in);
  }
  end = m.host(node).core().local_time();
  const bool nothing_in = p == Pattern::OneWay && node == 0;
  intact = nothing_in ? in.empty() : in == pattern(bytes, peer);
}

nlohmann::json run_pair(SimMode mode, Pattern p, std::size_t bytes) {
  return run_isolated([&] {
    NodeMachine m(machine(mode));
    Cycle end[2] = {};
    bool intact[2] = {};
    for (NodeId n : {0u, 1u}) m.load(n, pair_program(m, n, p, bytes, end[n], intact[n]));
    m.run();
    return nlohmann::json{{"end", std::max(end[0], end[1])}, {"intact", intact[0] && intact[1]}};
  });
}

TEST(Exchange, BothWaysTakeLittleLongerThanOneWayWhereSendingFirstTakesFarLonger) {
  constexpr std::size_t kBytes = 512 * 1024;  // 32 times the send buffer, 8 times the ring
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    SCOPED_TRACE(testing::Message() << "mode " << static_cast<int>(mode));
    const auto one_way = run_pair(mode, Pattern::OneWay, kBytes);
    const auto exchange = run_pair(mode, Pattern::Exchange, kBytes);
    const auto sequential = run_pair(mode, Pattern::SendThenReceive, kBytes);
    EXPECT_TRUE(exchange["intact"]);
    EXPECT_TRUE(sequential["intact"]);
    // Measured: AT 1.00 and 1.58 times one way, LT 1.00 and 1.81 (the adapter takes in the
    // partner's messages while the program sends, but lands them only as the ring has room).
    const double t1 = one_way["end"].get<double>();
    EXPECT_GE(exchange["end"].get<double>(), t1);
    EXPECT_LT(exchange["end"].get<double>(), 1.15 * t1) << one_way << exchange;
    EXPECT_GT(sequential["end"].get<double>(), 1.5 * t1) << one_way << sequential;
  }
}

// Four nodes send to node 0 at once: its ejection channel takes less than their streams offer.
Task incast_program(NodeMachine& m, NodeId node, std::size_t bytes, Cycle& end) {
  MessageChannel& channel = m.host(node).channel(0);
  if (node == 0) {
    std::vector<std::byte> in;
    for (std::size_t got = 0; got < 4 * bytes; got += in.size()) co_await receive_copy(channel, in);
  } else {
    co_await send_all(channel, {0, 0}, pattern(bytes, node));
  }
  end = m.host(node).core().local_time();
}

nlohmann::json run_incast(const Config& config, std::size_t bytes) {
  return run_isolated([&] {
    NodeMachine m(config);
    std::vector<Cycle> end(5);
    for (NodeId n = 0; n < 5; ++n) m.load(n, incast_program(m, n, bytes, end[n]));
    m.run();
    return nlohmann::json{{"received", end[0]},
                          {"sent", *std::max_element(end.begin() + 1, end.end())}};
  });
}

TEST(LtBackPressure, SendersIntoACongestedNodeFinishWhenAtsDo) {
  constexpr std::size_t kBytes = 256 * 1024;
  // Buffers deep enough for the links' credit loop: AT's streams then run at full rate, as
  // those of LT without buffers (no credit loop) do.
  const std::vector<Config> modes = test::every_mode(machine(SimMode::At, 128));
  const auto at = run_incast(modes[0], kBytes);
  for (const Config& lt_mode : {modes[1], modes[2]}) {
    const auto lt = run_incast(lt_mode, kBytes);
    for (const char* key : {"received", "sent"}) {
      EXPECT_NEAR(lt[key].get<double>() / at[key].get<double>(), 1.0, 0.15)
          << key << " lt_buffers " << lt_mode.sim.lt_buffers << at << lt;
    }
    // Measured: LT's senders finish at 0.97 of AT's time with buffers, at 0.94 without (0.28
    // without pacing, at their own stream rate); at 0.83 and 0.81 of the receiver's (0.24).
    EXPECT_GT(lt["sent"].get<double>(), 0.7 * lt["received"].get<double>()) << lt;
  }
}

}  // namespace
}  // namespace angara
