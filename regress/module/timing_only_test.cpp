// Timing-only sends (Payload::TimingOnly) and trains (sim.train_packets): an allgather whose
// values are not carried takes exactly as long as one whose values are; in LT, trains move the
// same flits over the same links as packet-by-packet sends and end close to them; AT ignores
// trains.

#include <gtest/gtest.h>

#include <array>
#include <iostream>
#include <vector>

#include "collectives/software/software_collectives.h"
#include "collectives/software/subnet_collectives.h"
#include "models/node/collective_port.h"
#include "platform/machine/node_machine.h"
#include "platform/machine/system.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::run_isolated;

struct Gather {
  bool subnet = false;
  Payload payload = Payload::Values;
};

Task gather_program(NodeMachine& machine, NodeId node, Gather g, std::size_t block_bytes,
                    Cycle& end, std::size_t& result_bytes) {
  Host& host = machine.host(node);
  host.channel(0).set_payload(g.payload);
  Mailbox mailbox(host.channel(0));
  CollectivePort port(host, g.payload);
  const std::vector<std::byte> block(block_bytes, std::byte{static_cast<unsigned char>(node)});
  std::vector<int> trees;
  for (int t = 0; t < kMaxTrees; ++t) {
    if (machine.system().trees()[t] != nullptr) trees.push_back(t);
  }
  std::array<std::uint64_t, kMaxTrees> landed{};
  std::vector<std::byte> result;
  if (g.subnet) {
    co_await subnet_allgather(port, machine.nodes(), trees, block, landed, result);
  } else {
    co_await recursive_doubling_allgather(mailbox, machine.nodes(), block, result);
  }
  end = host.core().local_time();
  result_bytes = result.size();
}

// The allgather of `block_bytes` per node: when the last node has it all, the result bytes
// every node holds (the same at all, or -1), and the flits moved over router-to-router links.
nlohmann::json run_gather(std::vector<int> dims, SimMode mode, int train_packets, Gather g,
                          std::size_t block_bytes, bool lt_buffers = false) {
  Config c;
  c.topology.dims = std::move(dims);
  c.sim.mode = mode;
  c.sim.lt_buffers = lt_buffers;
  c.sim.progress = false;
  c.sim.train_packets = train_packets;
  c.collective.trees = 4;
  return run_isolated([&] {
    NodeMachine machine(c);
    std::vector<Cycle> ends(static_cast<std::size_t>(machine.nodes()));
    std::vector<std::size_t> sizes(ends.size());
    for (NodeId n = 0; n < ends.size(); ++n) {
      machine.load(n, gather_program(machine, n, g, block_bytes, ends[n], sizes[n]));
    }
    machine.run();
    const bool same =
        std::all_of(sizes.begin(), sizes.end(), [&](auto s) { return s == sizes[0]; });
    return nlohmann::json{{"end", *std::max_element(ends.begin(), ends.end())},
                          {"result_bytes", same ? static_cast<std::int64_t>(sizes[0]) : -1},
                          {"flit_hops", machine.system().flit_hops()}};
  });
}

TEST(TimingOnly, AllgatherTakesExactlyAsLongAsWithValuesAndKeepsNone) {
  constexpr std::size_t kBlock = 3000;  // not a whole number of packets
  for (SimMode mode : {SimMode::At, SimMode::Lt}) {
    for (bool subnet : {false, true}) {
      SCOPED_TRACE(testing::Message()
                   << "mode " << static_cast<int>(mode) << ", subnet " << subnet);
      const auto values = run_gather({3, 2, 2}, mode, 1, {subnet, Payload::Values}, kBlock);
      const auto timing = run_gather({3, 2, 2}, mode, 1, {subnet, Payload::TimingOnly}, kBlock);
      EXPECT_EQ(values["result_bytes"], 12 * kBlock);
      EXPECT_EQ(timing["result_bytes"], 0);
      EXPECT_EQ(timing["end"], values["end"]);
      EXPECT_EQ(timing["flit_hops"], values["flit_hops"]);
    }
  }
}

// Trains hold each link as long as their packets would, so the flits moved are the same; their
// packets no longer interleave with others', so the end may move a little (measured here: 0 for
// recursive doubling, +2.3% for the subnet; SpMV's allgather at 16 nodes: 0 and +0.01%).
TEST(Trains, MoveTheSameFlitsAndEndCloseToPacketByPacket) {
  constexpr std::size_t kBlock = 65536 + 100;
  for (bool subnet : {false, true}) {
    SCOPED_TRACE(testing::Message() << "subnet " << subnet);
    const Gather g{subnet, Payload::TimingOnly};
    const auto packets = run_gather({2, 2, 2, 2}, SimMode::Lt, 1, g, kBlock);
    const auto trains = run_gather({2, 2, 2, 2}, SimMode::Lt, 16, g, kBlock);
    EXPECT_EQ(trains["flit_hops"], packets["flit_hops"]);
    const double ratio = trains["end"].get<double>() / packets["end"].get<double>();
    EXPECT_NEAR(ratio, 1.0, 0.05) << packets << trains;
  }
}

// With buffers a train moves at the pace of the credit loop its packets would see (a window of
// packets per round trip, over the VC sets they take in turn), holds the buffers in lanes that
// the next train takes over one by one, and through VCUp/VCDown it goes on as soon as its first
// packet is in. Measured here against AT's packet by packet: recursive doubling +0.1%, the
// subnet +2.8%.
TEST(Trains, WithBuffersEndCloseToAtPacketByPacket) {
  constexpr std::size_t kBlock = 65536 + 100;
  for (bool subnet : {false, true}) {
    SCOPED_TRACE(testing::Message() << "subnet " << subnet);
    const Gather g{subnet, Payload::TimingOnly};
    const auto at = run_gather({2, 2, 2, 2}, SimMode::At, 1, g, kBlock);
    const auto trains = run_gather({2, 2, 2, 2}, SimMode::Lt, 16, g, kBlock, true);
    EXPECT_EQ(trains["flit_hops"], at["flit_hops"]);
    const double ratio = trains["end"].get<double>() / at["end"].get<double>();
    EXPECT_NEAR(ratio, 1.0, subnet ? 0.05 : 0.02) << at << trains;
    std::cout << (subnet ? "subnet" : "recursive doubling") << ": LT trains with buffers / AT "
              << ratio << '\n';
  }
}

// A train that turns into VCUp or VCDown goes one packet per credit round trip (the bubble
// leaves room for one), and goes on at that pace: at the hops after, its packets come a round
// trip apart and are in a buffer one at a time, beside other trees' packets. Measured here on
// 4x4 with 4 trees against AT's packet by packet: trains of 2 +6.1%, of 16 +23% (SpMV's
// allgather of the same 8 KB a node: +6.3% and +12%, where trains taken as if they came back to
// back, a buffer full of one train's packets, gave +54% and +66%). What is left: a whole train
// is booked at once, so another tree's turning packet cannot slip in between its packets.
TEST(Trains, PacedByTheHopBeforeShareBuffersWithOtherTrees) {
  constexpr std::size_t kBlock = 8192;
  const Gather g{true, Payload::TimingOnly};
  const auto at = run_gather({4, 4}, SimMode::At, 1, g, kBlock);
  for (int train : {2, 16}) {
    SCOPED_TRACE(testing::Message() << "trains of " << train);
    const auto lt = run_gather({4, 4}, SimMode::Lt, train, g, kBlock, true);
    EXPECT_EQ(lt["flit_hops"], at["flit_hops"]);
    const double ratio = lt["end"].get<double>() / at["end"].get<double>();
    EXPECT_NEAR(ratio, 1.0, train == 2 ? 0.10 : 0.30) << at << lt;
    std::cout << "trains of " << train << ": LT with buffers / AT " << ratio << '\n';
  }
}

TEST(Trains, AtSendsPacketByPacket) {
  const Gather g{true, Payload::TimingOnly};
  EXPECT_EQ(run_gather({2, 2, 2}, SimMode::At, 16, g, 8192),
            run_gather({2, 2, 2}, SimMode::At, 1, g, 8192));
}

}  // namespace
}  // namespace angara
