#pragma once
// A user's traffic bench around an embedded angara-tlm machine (platform/machine/interconnect.h):
// a generator per port writes messages of random lengths to random other ports, a receiver per
// port logs what arrives, and check() compares the two. Written as a user would write it, with
// only the installed headers and TLM-2.0's own sockets; the in-tree embedding test runs it too.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/endpoint/message_extension.h"
#include "platform/machine/interconnect.h"

namespace bench {

// What one node sent to one other, in order, and what arrived there from it.
using Stream = std::vector<std::vector<unsigned char>>;
using Streams = std::map<std::pair<unsigned, unsigned>, Stream>;  // (src, dst)

// A message for node `dst` as a user port takes it: a write of `bytes` to address `dst`.
inline void message_write(tlm::tlm_generic_payload& payload, unsigned dst,
                          std::vector<unsigned char>& bytes) {
  payload.set_command(tlm::TLM_WRITE_COMMAND);
  payload.set_address(dst);
  payload.set_data_ptr(bytes.data());
  payload.set_data_length(static_cast<unsigned>(bytes.size()));
  payload.set_streaming_width(static_cast<unsigned>(bytes.size()));
  payload.set_byte_enable_ptr(nullptr);
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

struct Arrival {
  std::uint64_t latency_cycles;  // delivered - created, from the message's extension
  bool time_agrees;              // the target's time (now + delay) is the delivery cycle
};

// Writes `count` messages, one every `gap` cycles, each to a port drawn from `peers`.
// Decoupled (LT): runs ahead of the kernel with a quantum keeper and annotates its local time.
class Generator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Generator> socket;

  Generator(const sc_core::sc_module_name& name, unsigned self, const std::vector<unsigned>& peers,
            int count, std::uint64_t seed, const sc_core::sc_time& gap, bool decoupled,
            Streams& sent)
      : sc_core::sc_module(name),
        socket("socket"),
        m_self(self),
        m_count(count),
        m_state(seed * 0x9e3779b97f4a7c15ULL + self + 1),
        m_gap(gap),
        m_decoupled(decoupled),
        m_sent(sent) {
    for (unsigned p : peers) {
      if (p != self) m_others.push_back(p);
    }
    SC_HAS_PROCESS(Generator);
    SC_THREAD(run);
  }

  int refused = 0;  // messages the port answered with an error response

 private:
  std::uint64_t draw() {  // xorshift64: the user's own random numbers
    m_state ^= m_state << 13;
    m_state ^= m_state >> 7;
    m_state ^= m_state << 17;
    return m_state;
  }
  void run() {
    tlm_utils::tlm_quantumkeeper keeper;
    keeper.reset();
    for (int i = 0; i < m_count; ++i) {
      const unsigned dst = m_others[draw() % m_others.size()];
      // Mostly one packet, some several, now and then a 4 KiB message.
      const std::size_t length = i % 17 == 16 ? 4096 : 1 + draw() % 700;
      std::vector<unsigned char> bytes(length);
      for (auto& b : bytes) b = static_cast<unsigned char>(draw());
      tlm::tlm_generic_payload payload;
      message_write(payload, dst, bytes);
      sc_core::sc_time delay = m_decoupled ? keeper.get_local_time() : sc_core::SC_ZERO_TIME;
      socket->b_transport(payload, delay);
      if (!payload.is_response_ok()) {
        ++refused;
        continue;
      }
      m_sent[{m_self, dst}].push_back(std::move(bytes));
      if (m_decoupled) {
        keeper.set(delay + m_gap);
        if (keeper.need_sync()) keeper.sync();
      } else {
        sc_core::wait(m_gap);
      }
    }
  }

  unsigned m_self;
  std::vector<unsigned> m_others;  // the other ports
  int m_count;
  std::uint64_t m_state;
  sc_core::sc_time m_gap;
  bool m_decoupled;
  Streams& m_sent;
};

// Logs every message its port delivers: the source from the address, the bytes, the timing.
class Receiver : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Receiver> socket;

  Receiver(const sc_core::sc_module_name& name, unsigned self, const sc_core::sc_time& period,
           Streams& received, std::vector<Arrival>& arrivals)
      : sc_core::sc_module(name),
        socket("socket"),
        m_self(self),
        m_period(period),
        m_received(received),
        m_arrivals(arrivals) {
    socket.register_b_transport(this, &Receiver::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    const unsigned char* data = payload.get_data_ptr();
    const auto src = static_cast<unsigned>(payload.get_address());
    m_received[{src, m_self}].emplace_back(data, data + payload.get_data_length());
    const auto* ext = payload.get_extension<angara::MessageExtension>();
    if (ext != nullptr) {
      const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
      m_arrivals.push_back(
          {ext->delivered - ext->created, at == m_period * static_cast<double>(ext->delivered) &&
                                              ext->src == src && ext->dst == m_self});
    }
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  unsigned m_self;
  sc_core::sc_time m_period;
  Streams& m_received;
  std::vector<Arrival>& m_arrivals;
};

struct Result {
  std::uint64_t messages = 0;      // sent and accepted by the ports
  std::uint64_t received = 0;      // arrived at the receivers
  std::uint64_t handed_on = 0;     // the machine's count
  std::uint64_t mean_latency = 0;  // cycles, over all messages
  std::vector<std::string> problems;
};

// Builds the machine of `config` with ports on `ports`, a generator and a receiver on each, runs
// until everything has arrived and compares what arrived with what was sent.
inline Result run(const angara::Config& config, const std::vector<unsigned>& ports, int messages,
                  unsigned gap_cycles) {
  angara::Interconnect machine("machine", config,
                               std::vector<angara::NodeId>(ports.begin(), ports.end()));
  Streams sent, received;
  std::vector<Arrival> arrivals;
  std::vector<std::unique_ptr<Generator>> generators;
  std::vector<std::unique_ptr<Receiver>> receivers;
  const sc_core::sc_time period = machine.clock().period();
  const bool decoupled = config.sim.mode == angara::SimMode::Lt;
  for (unsigned node : ports) {
    const std::string at = std::to_string(node);
    generators.push_back(std::make_unique<Generator>(("generator_" + at).c_str(), node, ports,
                                                     messages, config.sim.seed, period * gap_cycles,
                                                     decoupled, sent));
    receivers.push_back(
        std::make_unique<Receiver>(("receiver_" + at).c_str(), node, period, received, arrivals));
    generators.back()->socket.bind(machine.user_port(node).in);
    machine.user_port(node).out.bind(receivers.back()->socket);
  }
  sc_core::sc_start();

  Result r;
  for (const auto& [pair, stream] : sent) r.messages += stream.size();
  for (const auto& [pair, stream] : received) r.received += stream.size();
  r.handed_on = machine.messages_handed_on();
  std::uint64_t total = 0;
  for (const Arrival& a : arrivals) {
    total += a.latency_cycles;
    if (!a.time_agrees) r.problems.push_back("a message arrived at a time other than its delivery");
  }
  if (!arrivals.empty()) r.mean_latency = total / arrivals.size();
  for (const auto& g : generators) {
    if (g->refused != 0) r.problems.push_back("a port refused a valid message");
  }
  for (const auto& [pair, stream] : sent) {
    auto it = received.find(pair);
    const std::string which =
        std::to_string(pair.first) + " -> " + std::to_string(pair.second) + ": ";
    if (it == received.end()) {
      r.problems.push_back(which + "nothing arrived");
    } else if (it->second != stream) {
      r.problems.push_back(which + std::to_string(stream.size()) + " sent, " +
                           std::to_string(it->second.size()) +
                           " arrived, not the same bytes in the same order");
    }
  }
  if (received.size() > sent.size()) r.problems.push_back("messages from nowhere arrived");
  return r;
}

}  // namespace bench
