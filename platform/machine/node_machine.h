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
#include "platform/machine/node_barrier.h"
#include "platform/machine/progress.h"
#include "platform/machine/system.h"
#include "platform/parallel/first_note.h"

namespace angara {

class NodeMachine {
 public:
  explicit NodeMachine(const Config& config);
  ~NodeMachine();

  const Config& config() const { return m_config; }
  System& system() { return *m_system; }
  const Torus& torus() const { return m_system->torus(); }
  int nodes() const { return static_cast<int>(m_hosts.size()); }
  // Split over MPI ranks, only this rank's nodes have a host and an endpoint.
  bool local(NodeId node) const { return m_hosts.at(node) != nullptr; }
  Host& host(NodeId node) { return *m_hosts.at(node); }
  const PcieEndpoint& endpoint(NodeId node) const { return *m_endpoints.at(node); }
  // Every node's program waits here between two steps (the software collectives' harness): the
  // programs go on one link's latency plus a flit after the last one arrived.
  NodeBarrier& barrier() { return m_barrier; }

  // Gives node `node` (a local one) its program. An exception escaping it fails the run.
  void load(NodeId node, Task program);
  // Runs until every loaded program has finished. Throws ModelError naming the node if a program
  // failed (the first by cycle, then node), and naming the waiting nodes if programs wait for
  // messages that never come. `work`, if given, tells the progress lines how far the programs
  // have got (split over ranks: this rank's programs; rank 0 shows its own).
  void run(const ProgressSink& progress = {}, std::function<WorkDone()> work = {});

  Cycle now() const { return m_system->clock().now(); }
  // Split over ranks, the grid and every rank's work, after run() (complete on rank 0).
  const SplitRecord& split_record() const { return m_split; }
  // Over every rank (each calls it at the same point).
  std::uint64_t messages_delivered() const;

 private:
  class Deliveries;
  Task guarded(Task program, NodeId node);
  std::uint64_t local_messages_delivered() const;
  std::string waiting_nodes() const;  // over every rank: each calls it

  Config m_config;
  FabricClock m_clock;
  std::unique_ptr<Deliveries> m_deliveries;
  std::unique_ptr<PcieShared> m_pcie_shared;
  std::vector<PcieEndpoint*> m_endpoints;  // [node], owned by the system as its traffic sources
  std::unique_ptr<System> m_system;
  std::vector<std::unique_ptr<Host>> m_hosts;  // [node]; null on another rank
  NodeBarrier m_barrier;
  std::vector<bool> m_running;
  int m_loaded = 0, m_finished = 0;  // this rank's programs
  NodeNote m_failure;                // the first program to fail here
  SplitRecord m_split;
};

}  // namespace angara
