#pragma once
// One collective operation (broadcast, reduce or allreduce), repeated, on one tree or on several
// trees at once: what every node's processor injects, and the check of everything that arrives.
// Inputs are random 64-bit integers from the seed (collective_inputs.h, shared with the software
// collectives); the expected result is computed here, independently of the model, and every
// delivered result must equal it word for word. A broadcast carries its source's inputs and must
// reach every processor of its tree except its source exactly once, payload intact.
//
// A processor keeps at most 16 reduces of one tree in flight (collective.reduces_in_flight): it
// counts what it issued and learns from its router's credit reports (every 128 results or 4096
// cycles) how many have completed.
// Uniform point-to-point traffic may run beside (workload.background_rate); the ledger checks it.
//
// Deliveries are counted where they arrive. Whether an operation is complete and when it ended
// are read from totals handed back with take_totals(): on one process the counts themselves,
// split over ranks their sums and maxima over all ranks.

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "collectives/subnet/tree.h"
#include "models/endpoint/traffic_source.h"
#include "workloads/params/workload_params.h"
#include "workloads/synthetic/destinations.h"

namespace angara {

class CollectiveWorkload : public TrafficObserver {
 public:
  // One tree the operation runs on, with its broadcast source and its reduce destination.
  struct Target {
    Tree tree;
    NodeId source = 0;
    NodeId destination = 0;
  };
  // `traffic`: the background's packets (its rate is workload.background_rate); `seed`: the
  // inputs' and the background's; `reduces_in_flight`: per tree from a processor.
  CollectiveWorkload(const WorkloadParams& workload, const TrafficParams& traffic,
                     std::uint64_t seed, const Topology& topology, std::vector<Target> targets,
                     int reduces_in_flight);
  ~CollectiveWorkload() override;

  // One source per node, to hand to the System; the workload keeps using them.
  std::vector<std::unique_ptr<TrafficSource>> make_sources();
  // Called when a node's source has new work (so its endpoint looks again).
  void set_waker(std::function<void(NodeId)> wake) { m_wake = std::move(wake); }
  // AT: a processor counts a credit report from the cycle after it arrives (its endpoint looks
  // at its source again then), so that same-cycle order does not matter. LT takes it at once.
  void count_reports_from_next_cycle() { m_reports_next_cycle = true; }

  // Operation k starts at cycle `at` on every target tree: its packets are created at its
  // participants.
  void start(int k, Cycle at);
  int operations() const { return m_started; }

  // For each operation k and target tree j, at [k x trees + j]: the deliveries counted here, and
  // the latest tail among them (0 if none).
  std::vector<std::uint64_t> received_here() const;
  std::vector<std::uint64_t> done_here() const;
  // The same over the whole machine (sums and maxima), which the three below read.
  void take_totals(const std::vector<std::uint64_t>& received,
                   const std::vector<std::uint64_t>& done);
  bool complete(int k) const;
  // Cycles from the start of operation k to its last expected delivery on any of the trees.
  Cycle completion_cycles(int k) const;
  // FNV-1a 64 over what was delivered, operation by operation (then tree by tree): a broadcast's
  // payload words, a reduce's or allreduce's result words (every delivery was checked equal to
  // them). The software experiment computes the same.
  std::uint64_t results_digest() const;

  std::uint64_t delivered_count() const { return m_delivered; }  // here
  int pe_nodes() const;  // processors taking part, over all target trees

  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& packet, NodeId at) override;

 private:
  class Source;
  struct Op {
    Cycle start = 0;
    int received = 0;  // here
    Cycle done = 0;    // here
    std::uint64_t received_total = 0;
    Cycle done_total = 0;
    std::vector<bool> got;            // [node]: delivered once already
    std::vector<std::int64_t> words;  // the expected payload or reduce result
  };
  struct Job {  // one target tree's operations
    Target target;
    std::vector<NodeId> pe_nodes;
    int expected = 0;  // deliveries per operation
    std::vector<Op> ops;
  };
  Job& job_of(const Packet& packet);
  Op& op_of(Job& job, const Packet& packet, NodeId at);
  void expect(bool condition, const Packet& packet, NodeId at, const char* what) const;

  WorkloadParams m_workload;
  TrafficParams m_traffic;  // the background's: uniform at workload.background_rate
  std::unique_ptr<Destinations> m_background;
  std::uint64_t m_seed = 0;
  std::uint32_t m_window = 0;  // reduces in flight per tree from a processor
  std::vector<Job> m_jobs;
  int m_started = 0;
  int m_nodes = 0;
  std::vector<Source*> m_sources;
  std::function<void(NodeId)> m_wake;
  std::uint64_t m_delivered = 0;
  bool m_reports_next_cycle = false;
};

}  // namespace angara
