#include "platform/machine/node_machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "platform/machine/sim_runner.h"

namespace angara {

// Ejected packets go to their node's PCIe endpoint; their sender's hears of it (LT pacing, on one
// rank only).
class NodeMachine::Deliveries : public TrafficObserver {
 public:
  std::vector<PcieEndpoint*> endpoints;  // [node]; null on another rank
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& packet, NodeId at) override {
    endpoints[at]->receive(packet);
    PcieEndpoint* sender = endpoints[packet.header.src];
    if (packet.header.kind == PacketKind::Message && sender) sender->reached(packet);
  }
  void on_the_way(NodeId to) override { endpoints[to]->prefetch_receive(); }
};

NodeMachine::NodeMachine(const Config& config)
    : m_config(config),
      m_clock(config.router.clock_mhz),
      m_deliveries(std::make_unique<Deliveries>()) {
  m_config.validate();
  check_parallel(m_config, Ranks::world());
  const Torus torus(m_config.topology.dims);
  const int nodes = torus.node_count();
  const std::vector<bool> local = local_nodes(torus, Ranks::world());
  m_pcie_shared = std::make_unique<PcieShared>(nodes, m_config.pcie, m_config.node, m_config.sim,
                                               m_config.fabric());
  std::vector<std::unique_ptr<TrafficSource>> sources(static_cast<std::size_t>(nodes));
  m_endpoints.assign(static_cast<std::size_t>(nodes), nullptr);
  const std::vector<NodeId> order = construction_order(static_cast<NodeId>(nodes));
  for (const NodeId n : order) {
    if (!local[n]) continue;
    auto endpoint = std::make_unique<PcieEndpoint>(fmt::format("pcie_{}", n).c_str(), n,
                                                   *m_pcie_shared, m_clock);
    m_endpoints[n] = endpoint.get();
    sources[n] = std::move(endpoint);
  }
  m_deliveries->endpoints = m_endpoints;
  m_system = std::make_unique<System>(m_config, std::move(sources), *m_deliveries);
  // In AT the programs do not run ahead of the kernel; in LT by up to the global quantum.
  const Cycle quantum = m_config.sim.mode == SimMode::At ? 1 : m_config.sim.quantum_cycles;
  m_hosts.resize(static_cast<std::size_t>(nodes));
  int here = 0;
  for (const NodeId n : order) {
    if (!local[n]) continue;
    ++here;
    m_endpoints[n]->on_new_work([this, n] { m_system->wake_endpoint(n); });
    m_hosts[n] = std::make_unique<Host>(fmt::format("host_{}", n).c_str(), n, nodes, m_config.node,
                                        m_config.router.clock_mhz, m_clock, quantum);
    m_hosts[n]->pcie.bind(m_endpoints[n]->host);
    m_endpoints[n]->dma.bind(m_hosts[n]->memory);
    if (WakeCalendar* calendar = m_system->wake_calendar()) {
      m_hosts[n]->wake_on(*calendar);
      m_endpoints[n]->wake_on(*calendar);
    }
  }
  m_barrier = NodeBarrier(here, lookahead(m_config), Ranks::world().parallel());
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
    const Cycle at = m_hosts[node]->core().local_time();
    m_failure.keep_first({at, node,
                          fmt::format("the program of node {} {} failed at cycle {}: {}", node,
                                      torus().format(node), at, e.what())});
  }
  m_running[node] = false;
  ++m_finished;
}

std::uint64_t NodeMachine::local_messages_delivered() const {
  std::uint64_t n = 0;
  for (const auto* e : m_endpoints) n += e ? e->messages_received() : 0;
  return n;
}

std::uint64_t NodeMachine::messages_delivered() const {
  return m_system->ranks().sum(local_messages_delivered());
}

std::string NodeMachine::waiting_nodes() const {
  // The first 8 in node order over every rank: each rank's first 8, then rank 0 merges them.
  std::vector<NodeId> first;
  for (NodeId n = 0; n < m_running.size() && first.size() < 8; ++n) {
    if (m_running[n]) first.push_back(n);
  }
  const Ranks& ranks = m_system->ranks();
  Bytes mine;
  for (NodeId n : first) put(mine, n);
  first.clear();
  for (const Bytes& theirs : ranks.gather(mine)) {
    for (std::size_t at = 0; at < theirs.size();) first.push_back(take<NodeId>(theirs, at));
  }
  std::sort(first.begin(), first.end());
  const auto waiting = ranks.sum(static_cast<std::uint64_t>(m_loaded - m_finished));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < first.size() && i < 8; ++i) {
    names.push_back(fmt::format("{} {}", first[i], torus().format(first[i])));
  }
  return fmt::format("the programs of {} node(s) wait for messages that never come: {}{}", waiting,
                     fmt::join(names, ", "), waiting > 8 ? ", ..." : "");
}

void NodeMachine::run(const ProgressSink& progress, std::function<WorkDone()> work) {
  // Progress for the watchdog: CPU resumes and messages. Outstanding: programs not finished,
  // counted only while none of them is computing (a long computation is not a deadlock).
  SimRunner::Watch watch{[this] {
                           std::uint64_t n = local_messages_delivered();
                           for (const auto& h : m_hosts) n += h ? h->core().resumes() : 0;
                           return n;
                         },
                         [this]() -> std::uint64_t {
                           for (const auto& h : m_hosts) {
                             if (h && !h->core().finished() && h->core().next_wakeup() != kNever) {
                               return 0;
                             }
                           }
                           return static_cast<std::uint64_t>(m_loaded - m_finished);
                         },
                         [this] { return waiting_nodes(); }};
  SimRunner runner(*m_system, m_config.sim, progress, watch);
  runner.count(std::move(work));
  runner.agree_on(m_barrier);
  const Ranks& ranks = m_system->ranks();
  // Over every rank: programs that failed, programs not finished.
  auto unfinished = [&] {
    std::array<std::uint64_t, 2> counts{m_failure.empty() ? 0u : 1u,
                                        static_cast<std::uint64_t>(m_loaded - m_finished)};
    ranks.sum(counts);
    return counts;
  };
  runner.run_until(kNever, "programs", [&] {
    const auto counts = unfinished();
    return counts[0] > 0 || counts[1] == 0;
  });
  m_split = runner.split_record();
  const NodeNote failure = first_over_ranks(m_failure, ranks);
  const auto [failed, running] = unfinished();
  if (failed > 0) shared_model_error(report_id::kNode, failure.what);
  if (running > 0) shared_model_error(report_id::kNode, waiting_nodes());
}

}  // namespace angara
