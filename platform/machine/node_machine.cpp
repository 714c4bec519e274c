#include "platform/machine/node_machine.h"

#include <fmt/format.h>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "platform/machine/sim_runner.h"

namespace angara {

// Ejected packets go to their node's PCIe endpoint; their sender's hears of it (LT pacing).
class NodeMachine::Deliveries : public TrafficObserver {
 public:
  std::vector<PcieEndpoint*> endpoints;
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& packet, NodeId at) override {
    endpoints[at]->receive(packet);
    if (packet.header.kind == PacketKind::Message) endpoints[packet.header.src]->reached(packet);
  }
  void on_the_way(NodeId to) override { endpoints[to]->prefetch_receive(); }
};

NodeMachine::NodeMachine(const Config& config)
    : m_config(config),
      m_clock(config.router.clock_mhz),
      m_deliveries(std::make_unique<Deliveries>()) {
  m_config.validate();
  const int nodes = Torus(m_config.topology.dims).node_count();
  m_pcie_shared = std::make_unique<PcieShared>(nodes, m_config.pcie, m_config.node, m_config.sim,
                                               m_config.fabric());
  std::vector<std::unique_ptr<TrafficSource>> sources;
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    auto endpoint = std::make_unique<PcieEndpoint>(fmt::format("pcie_{}", n).c_str(), n,
                                                   *m_pcie_shared, m_clock);
    m_endpoints.push_back(endpoint.get());
    sources.push_back(std::move(endpoint));
  }
  m_deliveries->endpoints = m_endpoints;
  m_system = std::make_unique<System>(m_config, std::move(sources), *m_deliveries);
  // In AT the programs do not run ahead of the kernel; in LT by up to the global quantum.
  const Cycle quantum = m_config.sim.mode == SimMode::At ? 1 : m_config.sim.quantum_cycles;
  for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
    m_endpoints[n]->on_new_work([this, n] { m_system->wake_endpoint(n); });
    m_hosts.push_back(std::make_unique<Host>(fmt::format("host_{}", n).c_str(), n, nodes,
                                             m_config.node, m_config.router.clock_mhz, m_clock,
                                             quantum));
    m_hosts.back()->pcie.bind(m_endpoints[n]->host);
    m_endpoints[n]->dma.bind(m_hosts.back()->memory);
    if (WakeCalendar* calendar = m_system->wake_calendar()) {
      m_hosts.back()->wake_on(*calendar);
      m_endpoints[n]->wake_on(*calendar);
    }
  }
  m_running.assign(static_cast<std::size_t>(nodes), false);
}

// SystemC 2.3 unregisters a module, port or export by a linear search of one global list each,
// so tearing down a machine of 100k modules is quadratic, most of a large run's time.
// The modules are therefore left to the end of the process (a SystemC model elaborates once per
// process anyway; tests run each machine in a child process).
NodeMachine::~NodeMachine() {
  for (auto& host : m_hosts) static_cast<void>(host.release());
  static_cast<void>(m_system.release());
}

void NodeMachine::load(NodeId node, Task program) {
  m_running.at(node) = true;
  ++m_loaded;
  m_hosts.at(node)->load(guarded(std::move(program), node));
}

Task NodeMachine::guarded(Task program, NodeId node) {
  try {
    co_await program;
  } catch (const std::exception& e) {
    if (m_failure.empty()) {
      m_failure = fmt::format("the program of node {} {} failed at cycle {}: {}", node,
                              torus().format(node), m_hosts[node]->core().local_time(), e.what());
    }
  }
  m_running[node] = false;
  ++m_finished;
}

std::uint64_t NodeMachine::messages_delivered() const {
  std::uint64_t n = 0;
  for (const auto* e : m_endpoints) n += e->messages_received();
  return n;
}

std::string NodeMachine::waiting_nodes() const {
  std::vector<std::string> names;
  for (NodeId n = 0; n < m_running.size() && names.size() < 8; ++n) {
    if (m_running[n]) names.push_back(fmt::format("{} {}", n, torus().format(n)));
  }
  return fmt::format("the programs of {} node(s) wait for messages that never come: {}{}",
                     m_loaded - m_finished, fmt::join(names, ", "),
                     m_loaded - m_finished > 8 ? ", ..." : "");
}

void NodeMachine::run(const ProgressSink& progress, std::function<WorkDone()> work) {
  // Progress for the watchdog: CPU resumes and messages. Outstanding: programs not finished,
  // counted only while none of them is computing (a long computation is not a deadlock).
  SimRunner::Watch watch{[this] {
                           std::uint64_t n = messages_delivered();
                           for (const auto& h : m_hosts) n += h->core().resumes();
                           return n;
                         },
                         [this]() -> std::uint64_t {
                           for (const auto& h : m_hosts) {
                             if (!h->core().finished() && h->core().next_wakeup() != kNever) {
                               return 0;
                             }
                           }
                           return static_cast<std::uint64_t>(m_loaded - m_finished);
                         },
                         [this] { return waiting_nodes(); }};
  SimRunner runner(*m_system, m_config.sim, progress, watch);
  runner.count(std::move(work));
  runner.run_until(kNever, "programs",
                   [this] { return !m_failure.empty() || m_finished == m_loaded; });
  if (!m_failure.empty()) model_error(report_id::kNode, m_failure);
  if (m_finished != m_loaded) model_error(report_id::kNode, waiting_nodes());
}

}  // namespace angara
