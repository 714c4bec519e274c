// The PCIe adapter's host window refuses each host mistake with a TLM error response and a reason
// naming the node, the channel (where there is one) and the rule broken; the reason reaches the
// user in the run's ModelError (the CLI prints it and exits 3).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "models/pcie/host_link.h"
#include "platform/machine/node_machine.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using host_protocol::SendHeader;
using host_protocol::SendKind;
using test::IsolatedError;
using test::run_isolated;

// One store into the window: `stores` times at the same cycle (an overflow needs several).
struct Mistake {
  const char* name;
  std::uint64_t address;
  SendHeader header;
  std::size_t bytes;  // of the store; 0: the header and header.bytes
  int stores;
  const char* expected;  // the reason, after "node 3"
};

SendHeader header(SendKind kind, std::uint32_t bytes, std::uint32_t dst_node = 0,
                  std::uint16_t dst_channel = 0, std::uint8_t tree = 0, std::uint8_t flags = 0) {
  SendHeader h;
  h.kind = kind;
  h.bytes = bytes;
  h.set_dst_node(dst_node);
  h.dst_channel = dst_channel;
  h.src_channel = 1;
  h.tree = tree;
  h.flags = flags;
  return h;
}

constexpr auto kMessage = SendKind::Message;
constexpr auto kReduce = SendKind::Reduce;
constexpr std::uint8_t kTiming = host_protocol::kTimingOnly;

// A 4x4 machine: 16 nodes, node.channels = 2, node.max_message_bytes = 4096,
// node.tx_buffer_bytes = 16384.
const std::vector<Mistake> kMistakes = {
    {"kind", 0x0, header(static_cast<SendKind>(7), 64), 0, 1,
     " channel 1: send of kind 7: the kinds are 0 (message), 1 (broadcast) and 2 (reduce)"},
    {"flags", 0x0, header(kMessage, 64, 0, 0, 0, 2), 0, 1,
     " channel 1: send with flags 0x2: the only flag is 1 (timing-only)"},
    {"timing_only_reduce", 0x0, header(kReduce, 64, 0, 0, 0, kTiming), 16, 1,
     " channel 1: timing-only reduce: a reduce carries its values"},
    {"node", 0x0, header(kMessage, 64, 99), 0, 1,
     " channel 1: send to node 99: the machine has nodes 0..15"},
    {"dst_channel", 0x0, header(kMessage, 64, 0, 5), 0, 1,
     " channel 1: send to channel 5 of node 0: node.channels = 2"},
    {"tree", 0x0, header(SendKind::Broadcast, 64, 0, 0, 16), 0, 1,
     " channel 1: collective send on tree 16: TreeIds are 0..15"},
    {"empty", 0x0, header(kMessage, 0), 0, 1,
     " channel 1: send of 0 bytes: a send carries at least 1 byte"},
    {"too_long", 0x1000, header(kMessage, 5000), 0, 1,
     " channel 1: send of 5000 bytes exceeds node.max_message_bytes = 4096"},
    {"reduce_too_long", 0x0, header(kReduce, 512), 0, 1,
     " channel 1: reduce of 512 bytes exceeds one packet's 256 bytes"},
    {"length", 0x0, header(kMessage, 100), 66, 1,
     " channel 1: send of 100 bytes stored as 66 bytes: a send is its 16-byte header and its "
     "bytes, 116 bytes"},
    {"overflow", 0x1000, header(kMessage, 4096), 0, 5,
     " channel 1: send of 4096 bytes with 16384 bytes in the send buffer overflows "
     "node.tx_buffer_bytes = 16384"},
    {"short_send", 0x0, {}, 8, 1, ": send of 8 bytes at 0x0: shorter than its 16-byte header"},
    {"release_alignment",
     0x2004,
     {},
     8,
     1,
     " channel 0: ring release of 8 bytes at 0x2004: a release is one 8-byte count at 0x2000"},
    {"release_channel",
     0x2028,
     {},
     8,
     1,
     " channel 5: ring release of a channel beyond node.channels = 2"},
    {"address", 0x5000, {}, 8, 1, ": store of 8 bytes at 0x5000: no such window address"},
};

Config config(std::vector<int> dims) {
  Config c;
  c.topology.dims = std::move(dims);
  c.sim.progress = false;
  return c;
}

Task store(Host& host, Mistake m) {
  std::vector<std::byte> bytes(m.bytes != 0 ? m.bytes : sizeof m.header + m.header.bytes);
  std::memcpy(bytes.data(), &m.header, std::min(bytes.size(), sizeof m.header));
  for (int i = 0; i < m.stores; ++i) {
    host.store(m.address, bytes.data(), bytes.size(), host.core().local_time());
  }
  co_return;
}

TEST(HostWindow, EachMistakeIsRefusedNamingNodeChannelAndRule) {
  for (const Mistake& m : kMistakes) {
    try {
      run_isolated([&m] {
        NodeMachine machine(config({4, 4}));
        machine.load(3, store(machine.host(3), m));
        machine.run();
        return nlohmann::json{};
      });
      ADD_FAILURE() << m.name << ": expected an error";
    } catch (const IsolatedError& e) {
      EXPECT_EQ(e.type(), "ModelError") << m.name;
      const std::string what = e.what();
      EXPECT_NE(what.find("refused: TLM_"), std::string::npos) << m.name << ": " << what;
      EXPECT_NE(what.find(std::string("node 3") + m.expected), std::string::npos)
          << m.name << ": " << what;
    }
  }
}

// The host never reads the window; a raw read is refused all the same, saying so.
Task read_window(Host& host, std::string& status, std::string& reason) {
  tlm::tlm_generic_payload gp;
  std::uint64_t word = 0;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(host_protocol::kRxReleased);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
  gp.set_data_length(sizeof word);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host.pcie->b_transport(gp, delay);
  status = gp.get_response_string();
  reason = take_refusal(gp);
  co_return;
}

TEST(HostWindow, AReadIsRefusedAsACommandError) {
  const auto r = run_isolated([] {
    NodeMachine machine(config({2, 2}));
    std::string status, reason;
    machine.load(1, read_window(machine.host(1), status, reason));
    machine.run();
    return nlohmann::json{{"status", status}, {"reason", reason}};
  });
  EXPECT_EQ(r["status"], "TLM_COMMAND_ERROR_RESPONSE");
  EXPECT_EQ(r["reason"], "node 1: read of 8 bytes at 0x2000: the PCIe window is write-only");
}

}  // namespace
}  // namespace angara
