// The node end to end: CPU programs exchanging messages through host, PCIe endpoint and torus.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/node_machine.h"
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
      co_await send_all(ch, peer, {message->fragments.begin(), message->fragments.begin() + message->count});
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
