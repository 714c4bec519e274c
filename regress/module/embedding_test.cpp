// The machine embedded in a user's model (platform/machine/interconnect.h): a user's generators
// and receivers bound to user ports. Every message arrives once, whole, from its sender, in AT,
// LT and LT with buffers; a lone message takes the zero-load latency in every mode, and longer
// beside background traffic, which never reaches a port; mistakes get the base protocol's error
// responses. Each simulation runs in a child.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iostream>

#include "models/core/config_error.h"
#include "models/core/zero_load.h"
#include "regress/install/embed/traffic_bench.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::every_mode;
using test::in_mode;
using test::run_isolated;

nlohmann::json bench_run(const Config& config, const std::vector<unsigned>& ports, int messages,
                         unsigned gap) {
  return run_isolated([&] {
    const bench::Result r = bench::run(config, ports, messages, gap);
    return nlohmann::json{{"messages", r.messages},
                          {"received", r.received},
                          {"handed_on", r.handed_on},
                          {"mean_latency", r.mean_latency},
                          {"problems", r.problems}};
  });
}

TEST(Embedding, EveryMessageArrivesWholeFromItsSenderInEveryMode) {
  Config c;  // 4x4x4
  const std::vector<unsigned> ports{0, 5, 21, 22, 42, 47, 60, 63};
  std::vector<double> latency;
  for (const Config& m : every_mode(c)) {
    const auto r = bench_run(m, ports, 60, 200);
    SCOPED_TRACE(r.dump());
    EXPECT_EQ(r["problems"].size(), 0u);
    EXPECT_EQ(r["messages"], 8 * 60);
    EXPECT_EQ(r["received"], r["messages"]);
    EXPECT_EQ(r["handed_on"], r["messages"]);
    latency.push_back(r["mean_latency"].get<double>());
  }
  // Light load (a message of 37 flits on average every 200 cycles per port): LT with buffers'
  // mean latency near AT's. Without buffers LT is shorter: a 4 KiB message's 16 packets do not
  // wait for the injection buffer's credits as they do in AT (measured 193 against 214 cycles).
  std::cout << "mean latency, cycles: AT " << latency[0] << ", LT " << latency[1]
            << ", LT with buffers " << latency[2] << "\n";
  EXPECT_NEAR(latency[2], latency[0], 0.05 * latency[0]);
  EXPECT_NEAR(latency[1], latency[0], 0.15 * latency[0]);
  EXPECT_LE(latency[1], latency[0]);
}

TEST(Embedding, HeavyTrafficOnAFatTreeArrivesInEveryMode) {
  Config c;
  c.topology.kind = TopologyKind::FatTree;
  c.topology.k = 4;
  c.topology.levels = 2;
  const std::vector<unsigned> ports{0, 1, 2, 3, 4, 9, 14, 15};
  for (const Config& m : every_mode(c)) {
    const auto r = bench_run(m, ports, 80, 2);  // the ports' channels are saturated
    SCOPED_TRACE(r.dump());
    EXPECT_EQ(r["problems"].size(), 0u);
    EXPECT_EQ(r["received"], 8 * 80);
  }
}

// Sends one message at a time and waits long enough for it to have arrived; then calls `done`.
class LoneSender : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LoneSender> socket;
  LoneSender(
      const sc_core::sc_module_name& name, NodeId dst, std::vector<std::size_t> lengths,
      const sc_core::sc_time& apart, std::function<void()> done = [] {})
      : sc_core::sc_module(name),
        socket("socket"),
        m_dst(dst),
        m_lengths(std::move(lengths)),
        m_apart(apart),
        m_done(std::move(done)) {
    SC_HAS_PROCESS(LoneSender);
    SC_THREAD(run);
  }

 private:
  void run() {
    for (std::size_t length : m_lengths) {
      std::vector<unsigned char> bytes(length, 0x5a);
      tlm::tlm_generic_payload payload;
      bench::message_write(payload, m_dst, bytes);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(payload, delay);
      if (!payload.is_response_ok()) throw std::runtime_error("refused");
      sc_core::wait(m_apart);
    }
    m_done();
  }
  NodeId m_dst;
  std::vector<std::size_t> m_lengths;
  sc_core::sc_time m_apart;
  std::function<void()> m_done;
};

// Latency in cycles of each lone message from `src` to `dst` (the extension's, checked against
// the time the target saw).
nlohmann::json lone_latencies(const Config& config, NodeId src, NodeId dst,
                              const std::vector<std::size_t>& lengths) {
  return run_isolated([&] {
    Interconnect machine("machine", config, {src, dst});
    bench::Streams received;
    std::vector<bench::Arrival> arrivals;
    LoneSender sender("sender", dst, lengths, machine.clock().period() * 2000.0);
    bench::Receiver receiver("receiver", dst, machine.clock().period(), received, arrivals);
    sender.socket.bind(machine.user_port(src).in);
    machine.user_port(dst).out.bind(receiver.socket);
    sc_core::sc_start();
    nlohmann::json out = nlohmann::json::array();
    for (const auto& a : arrivals) out.push_back({a.latency_cycles, a.time_agrees});
    return out;
  });
}

TEST(Embedding, LoneMessagesTakeTheZeroLoadLatencyInEveryMode) {
  Config c;
  c.topology.dims = {4, 4, 4};
  const Torus torus(c.topology.dims);
  const NodeId src = 0, dst = torus.node({2, 1, 3});
  // 256 bytes: one packet of 17 flits; 16 bytes: 2 flits; then 4 and 9 packets.
  const std::vector<std::size_t> lengths{256, 16, 1000, 2200};
  const Cycle one = zero_load_latency(c.fabric(), torus.min_hops(src, dst), 17);
  const Cycle small = zero_load_latency(c.fabric(), torus.min_hops(src, dst), 2);
  std::vector<nlohmann::json> runs;
  for (const Config& m : every_mode(c)) {
    runs.push_back(lone_latencies(m, src, dst, lengths));
    SCOPED_TRACE(runs.back().dump());
    ASSERT_EQ(runs.back().size(), lengths.size());
    EXPECT_EQ(runs.back()[0][0], one);
    EXPECT_EQ(runs.back()[1][0], small);
    for (const auto& a : runs.back()) EXPECT_TRUE(a[1].get<bool>());
  }
  // A message of several packets: its packets go back to back on the injection channel, so the
  // last one's tail arrives its predecessors' serialization after a lone packet's would, as
  // long as they fit in the router's injection buffers (4 packets: 1000 bytes, the last 232).
  const ZeroLoad zero(c.fabric());
  const Cycle full = zero.local().serialization(17);
  const int hops = torus.min_hops(src, dst);
  EXPECT_EQ(runs[0][2][0], zero.latency(hops, 1 + 15) + 3 * full);
  EXPECT_EQ(runs[0], runs[2]);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(runs[0][i], runs[1][i]);
  // 9 packets (2200 bytes, the last 152) do not fit: in AT and LT with buffers the last ones
  // wait for credits; LT without buffers has no back-pressure and sends them back to back.
  EXPECT_EQ(runs[1][3][0], zero.latency(hops, 1 + 10) + 8 * full);
  EXPECT_GT(runs[0][3][0].get<Cycle>(), runs[1][3][0].get<Cycle>());
}

// 40 lone messages of 256 bytes from `src` to `dst` beside the background config says, which
// stops after the last: what arrived where, and the background's figures.
nlohmann::json beside_background(const Config& config, NodeId src, NodeId dst) {
  return run_isolated([&] {
    Interconnect machine("machine", config, {src, dst});
    bench::Streams received;
    std::vector<bench::Arrival> arrivals;
    LoneSender sender("sender", dst, std::vector<std::size_t>(40, 256),
                      machine.clock().period() * 300.0, [&] { machine.stop_background(); });
    bench::Receiver receiver("receiver", dst, machine.clock().period(), received, arrivals);
    sender.socket.bind(machine.user_port(src).in);
    machine.user_port(dst).out.bind(receiver.socket);
    sc_core::sc_start();  // ends: the background stopped
    machine.system().check_conservation();
    const auto from_src = received.find({src, dst});
    const bool whole =
        received.size() == 1 && from_src != received.end() &&
        std::all_of(from_src->second.begin(), from_src->second.end(),
                    [](const auto& m) { return m == std::vector<unsigned char>(256, 0x5a); });
    double latency = 0;
    for (const auto& a : arrivals) latency += static_cast<double>(a.latency_cycles);
    const LatencyStats& background = machine.background_latency();
    return nlohmann::json{{"arrived", arrivals.size()},
                          {"whole", whole},
                          {"mean_latency", arrivals.empty() ? 0.0 : latency / arrivals.size()},
                          {"background", machine.background_delivered()},
                          {"background_min", background.count() ? background.min() : 0},
                          {"end", machine.clock().now()}};
  });
}

TEST(Embedding, BackgroundBesideThePortsDelaysTheirMessagesAndNeverReachesThemInEveryMode) {
  Config c;  // 4x4x4
  const Torus torus(c.topology.dims);
  const NodeId src = 0, dst = torus.node({2, 2, 2});
  const Cycle lone = zero_load_latency(c.fabric(), torus.min_hops(src, dst), 17);
  for (const Config& quiet : every_mode(c)) {
    Config busy = quiet;
    busy.workload.background_rate = 0.4;
    const auto alone = beside_background(quiet, src, dst);
    const auto loaded = beside_background(busy, src, dst);
    SCOPED_TRACE(alone.dump() + " / " + loaded.dump());
    EXPECT_EQ(alone["arrived"], 40);
    EXPECT_EQ(loaded["arrived"], 40);
    EXPECT_TRUE(loaded["whole"].get<bool>());  // the background's packets never reach a target
    EXPECT_EQ(alone["mean_latency"], lone);
    EXPECT_EQ(alone["background"], 0);
    // 62 nodes at 0.4 flits/node/cycle for 40 x 300 cycles: about 17,500 packets of 17 flits.
    EXPECT_GT(loaded["background"].get<std::uint64_t>(), 15000u);
    EXPECT_GE(loaded["background_min"].get<Cycle>(), zero_load_latency(c.fabric(), 1, 2));
    EXPECT_GT(loaded["mean_latency"].get<double>(), lone + 5);  // they wait behind it
    std::cout << "lone 256-byte messages, cycles: " << lone << " alone, " << loaded["mean_latency"]
              << " beside " << loaded["background"] << " background packets at 0.4\n";
  }
}

// A monitor as a user inserts one: a target and an initiator socket, each transaction counted
// and passed on unchanged.
class Monitor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Monitor> in;
  tlm_utils::simple_initiator_socket<Monitor> out;
  std::uint64_t seen = 0, bytes = 0;
  explicit Monitor(const sc_core::sc_module_name& name)
      : sc_core::sc_module(name), in("in"), out("out") {
    in.register_b_transport(this, &Monitor::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    ++seen;
    bytes += payload.get_data_length();
    out->b_transport(payload, delay);
  }
};

TEST(Embedding, AMonitorBetweenTheUsersModelAndAPortSeesEveryMessage) {
  for (const Config& m : every_mode(Config{})) {
    const auto r = run_isolated([&] {
      Interconnect machine("machine", m, {4, 40});
      bench::Streams sent, received;
      std::vector<bench::Arrival> arrivals;
      const sc_core::sc_time period = machine.clock().period();
      const bool lt = m.sim.mode == SimMode::Lt;
      bench::Generator g4("g4", 4, {4, 40}, 30, 1, period * 100.0, lt, sent);
      bench::Generator g40("g40", 40, {4, 40}, 30, 2, period * 100.0, lt, sent);
      bench::Receiver r4("r4", 4, period, received, arrivals);
      bench::Receiver r40("r40", 40, period, received, arrivals);
      Monitor into("into"), out_of("out_of");
      g4.socket.bind(into.in);
      into.out.bind(machine.user_port(4).in);
      g40.socket.bind(machine.user_port(40).in);
      machine.user_port(4).out.bind(r4.socket);
      machine.user_port(40).out.bind(out_of.in);
      out_of.out.bind(r40.socket);
      sc_core::sc_start();
      std::uint64_t bytes_4_to_40 = 0;
      for (const auto& message : sent[{4, 40}]) bytes_4_to_40 += message.size();
      return nlohmann::json{{"into", into.seen},
                            {"out_of", out_of.seen},
                            {"out_of_bytes", out_of.bytes},
                            {"sent_bytes", bytes_4_to_40},
                            {"same", sent == received && arrivals.size() == 60}};
    });
    EXPECT_EQ(r["into"], 30);
    EXPECT_EQ(r["out_of"], 30);
    EXPECT_EQ(r["out_of_bytes"], r["sent_bytes"]);
    EXPECT_TRUE(r["same"].get<bool>());
  }
}

// An AT initiator in the base protocol's four phases: BEGIN_REQ forward, BEGIN_RESP back,
// answered with TLM_COMPLETED.
class FourPhaseSender : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FourPhaseSender> socket;
  std::vector<int> statuses;
  FourPhaseSender(const sc_core::sc_module_name& name, NodeId dst, int count)
      : sc_core::sc_module(name), socket("socket"), m_dst(dst), m_count(count) {
    socket.register_nb_transport_bw(this, &FourPhaseSender::nb_transport_bw);
    SC_HAS_PROCESS(FourPhaseSender);
    SC_THREAD(run);
  }

 private:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) {
    if (phase == tlm::BEGIN_RESP) m_response.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  void run() {
    for (int i = 0; i < m_count; ++i) {
      std::vector<unsigned char> bytes(100 + 50 * static_cast<std::size_t>(i),
                                       static_cast<unsigned char>(i));
      tlm::tlm_generic_payload payload;
      bench::message_write(payload, m_dst, bytes);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      if (socket->nb_transport_fw(payload, phase, delay) != tlm::TLM_COMPLETED) {
        sc_core::wait(m_response);
      }
      statuses.push_back(payload.get_response_status());
      sc_core::wait(sc_core::sc_time(500, sc_core::SC_NS));
    }
  }
  NodeId m_dst;
  int m_count;
  sc_core::sc_event m_response;
};

TEST(Embedding, AnAtInitiatorMayUseTheFourPhases) {
  const auto r = run_isolated([] {
    Interconnect machine("machine", in_mode(Config{}, SimMode::At), {1, 2});
    bench::Streams received;
    std::vector<bench::Arrival> arrivals;
    FourPhaseSender sender("sender", 2, 5);
    bench::Receiver receiver("receiver", 2, machine.clock().period(), received, arrivals);
    sender.socket.bind(machine.user_port(1).in);
    machine.user_port(2).out.bind(receiver.socket);
    sc_core::sc_start();
    nlohmann::json lengths = nlohmann::json::array();
    for (const auto& message : received[{1, 2}]) lengths.push_back(message.size());
    return nlohmann::json{{"statuses", sender.statuses}, {"lengths", lengths}};
  });
  EXPECT_EQ(r["statuses"], std::vector<int>(5, tlm::TLM_OK_RESPONSE));
  EXPECT_EQ(r["lengths"], (std::vector<int>{100, 150, 200, 250, 300}));
}

// Writes each of `requests` once and records the response status.
class Prober : public sc_core::sc_module {
 public:
  struct Request {
    tlm::tlm_command command;
    std::uint64_t address;
    std::size_t length;
  };
  tlm_utils::simple_initiator_socket<Prober> socket;
  std::vector<int> statuses;
  Prober(const sc_core::sc_module_name& name, std::vector<Request> requests)
      : sc_core::sc_module(name), socket("socket"), m_requests(std::move(requests)) {
    SC_HAS_PROCESS(Prober);
    SC_THREAD(run);
  }

 private:
  void run() {
    std::vector<unsigned char> bytes(70000, 1);
    for (const Request& r : m_requests) {
      tlm::tlm_generic_payload payload;
      payload.set_command(r.command);
      payload.set_address(r.address);
      payload.set_data_ptr(bytes.data());
      payload.set_data_length(static_cast<unsigned>(r.length));
      payload.set_streaming_width(static_cast<unsigned>(r.length));
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(payload, delay);
      statuses.push_back(payload.get_response_status());
    }
  }
  std::vector<Request> m_requests;
};

TEST(Embedding, MistakesGetTheBaseProtocolsErrorResponses) {
  for (const Config& m : {in_mode(Config{}, SimMode::At), in_mode(Config{}, SimMode::Lt)}) {
    const auto statuses = run_isolated([&] {
      sc_core::sc_report_handler::set_actions("/angara/user_port", sc_core::SC_WARNING,
                                              sc_core::SC_DO_NOTHING);
      Interconnect machine("machine", m, {3, 9});
      Prober prober("prober", {{tlm::TLM_READ_COMMAND, 9, 8},
                               {tlm::TLM_WRITE_COMMAND, 64, 8},  // no such node
                               {tlm::TLM_WRITE_COMMAND, 3, 8},   // its own node
                               {tlm::TLM_WRITE_COMMAND, 10, 8},  // a node without a port
                               {tlm::TLM_WRITE_COMMAND, 9, 0},
                               {tlm::TLM_WRITE_COMMAND, 9, 65537},
                               {tlm::TLM_WRITE_COMMAND, 9, 65536}});
      bench::Streams received;
      std::vector<bench::Arrival> arrivals;
      bench::Receiver r3("r3", 3, machine.clock().period(), received, arrivals);
      bench::Receiver r9("r9", 9, machine.clock().period(), received, arrivals);
      prober.socket.bind(machine.user_port(3).in);
      machine.user_port(3).out.bind(r3.socket);
      machine.user_port(9).out.bind(r9.socket);
      sc_core::sc_start();
      return nlohmann::json{{"statuses", prober.statuses},
                            {"arrived", received[{3, 9}].size()},
                            {"bytes", received[{3, 9}].at(0).size()}};
    });
    EXPECT_EQ(statuses["statuses"],
              (std::vector<int>{tlm::TLM_COMMAND_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                                tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                                tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
                                tlm::TLM_OK_RESPONSE}));
    EXPECT_EQ(statuses["arrived"], 1);
    EXPECT_EQ(statuses["bytes"], 65536);
  }
}

// A target that refuses every message.
struct Refuser : sc_core::sc_module {
  tlm_utils::simple_target_socket<Refuser> socket{"socket"};
  explicit Refuser(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
    socket.register_b_transport(this, &Refuser::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  }
};

// An error response from the user's own target loses the message: the run stops with a
// ModelError naming it, as any lost message does, in both modes.
TEST(Embedding, AnErrorResponseFromTheUsersTargetStopsTheRun) {
  for (const Config& m : {in_mode(Config{}, SimMode::At), in_mode(Config{}, SimMode::Lt)}) {
    try {
      run_isolated([&] {
        Interconnect machine("machine", m, {3, 9});
        Prober prober("prober", {{tlm::TLM_WRITE_COMMAND, 9, 64}});
        bench::Streams received;
        std::vector<bench::Arrival> arrivals;
        bench::Receiver r3("r3", 3, machine.clock().period(), received, arrivals);
        Refuser r9("r9");
        prober.socket.bind(machine.user_port(3).in);
        machine.user_port(3).out.bind(r3.socket);
        machine.user_port(9).out.bind(r9.socket);
        sc_core::sc_start();
        return nlohmann::json{};
      });
      ADD_FAILURE() << "a refused message went unnoticed";
    } catch (const test::IsolatedError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("the user's target answered TLM_GENERIC_ERROR_RESPONSE to a message "
                          "from node 3"),
                std::string::npos)
          << what;
    }
  }
}

TEST(Embedding, APortOnANodeThatDoesNotExistOrHasFailedIsAConfigError) {
  Config faulty;
  faulty.faults.nodes = {{1, 2, 3}};
  const NodeId failed = Torus(faulty.topology.dims).node({1, 2, 3});
  for (const auto& [config, port] : {std::pair{Config{}, NodeId{64}}, std::pair{faulty, failed}}) {
    try {
      run_isolated([&] {
        Interconnect machine("machine", in_mode(config, SimMode::At), {1, port});
        return nlohmann::json{};
      });
      ADD_FAILURE() << "no error for a port on node " << port;
    } catch (const test::IsolatedError& e) {
      EXPECT_EQ(e.type(), "ConfigError");
      EXPECT_NE(std::string(e.what()).find(fmt::format("'ports' = {}", port)), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace angara
