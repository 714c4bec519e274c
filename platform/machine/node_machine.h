#pragma once
// NodeMachine: the whole machine with a node on every router's local port: a Host (CPU running
// one program, host memory) and a PcieEndpoint between the host and the router's injection and
// ejection ports. Programs are C++20 coroutines (models/cpu/task.h) using the hosts' message
// channels; run() goes on until every program has finished.

#include <memory>
#include <string>
#include <vector>

#include "models/cpu/task.h"
#include "models/node/host.h"
#include "models/node/message_channel.h"
#include "models/pcie/pcie_endpoint.h"
#include "platform/machine/progress.h"
#include "platform/machine/system.h"

namespace angara {

class NodeMachine {
 public:
  explicit NodeMachine(const Config& config);
  ~NodeMachine();

  const Config& config() const { return m_config; }
  System& system() { return *m_system; }
  const Torus& torus() const { return m_system->torus(); }
  int nodes() const { return static_cast<int>(m_hosts.size()); }
  Host& host(NodeId node) { return *m_hosts.at(node); }
  const PcieEndpoint& endpoint(NodeId node) const { return *m_endpoints.at(node); }

  // Gives node `node` its program. An exception escaping it fails the run.
  void load(NodeId node, Task program);
  // Runs until every loaded program has finished. Throws ModelError naming the node if a program
  // failed, and naming the waiting nodes if programs wait for messages that never come. `work`,
  // if given, tells the progress lines how far the programs have got.
  void run(const ProgressSink& progress = {}, std::function<WorkDone()> work = {});

  Cycle now() const { return m_system->clock().now(); }
  std::uint64_t messages_delivered() const;

 private:
  class Deliveries;
  Task guarded(Task program, NodeId node);
  std::string waiting_nodes() const;

  Config m_config;
  FabricClock m_clock;
  std::unique_ptr<Deliveries> m_deliveries;
  std::unique_ptr<PcieShared> m_pcie_shared;
  std::vector<PcieEndpoint*> m_endpoints;  // owned by the system, as its traffic sources
  std::unique_ptr<System> m_system;
  std::vector<std::unique_ptr<Host>> m_hosts;
  std::vector<bool> m_running;
  int m_loaded = 0, m_finished = 0;
  std::string m_failure;
};

}  // namespace angara
