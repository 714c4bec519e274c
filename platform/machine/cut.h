#pragma once
// A machine split over MPI ranks: which rank owns each node (a box of the torus per rank), the
// ends of the links cut between boxes, and the exchange at the end of every window that hands
// what crossed to the rank on the other side (docs/PARALLEL.md).

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/fabric/link_proxy.h"
#include "models/topology/torus.h"
#include "platform/config/config.h"
#include "platform/config/split_rules.h"
#include "platform/parallel/rank_grid.h"
#include "platform/parallel/ranks.h"

namespace angara {

// What one rank's part of a split run cost.
struct RankWork {
  double kernel_seconds = 0;    // in SystemC's kernel
  double exchange_seconds = 0;  // in exchanges, waiting for the neighbours included
  std::uint64_t windows = 0;
  std::uint64_t records = 0;          // sent: packets and credits
  std::uint64_t bytes = 0;            // sent
  std::uint64_t peak_memory_kib = 0;  // the process's peak resident set
};

// A run split over ranks, for its results: the grid and every rank's work, in rank order.
struct SplitRecord {
  int ranks = 1;
  std::string grid;
  std::vector<RankWork> work;
};

// [node]: whether the node is this rank's (every node on one rank), as the cut will have it.
std::vector<bool> local_nodes(const Torus& torus, const Ranks& ranks);

// The order the nodes' modules are made in: node order, or, for the project's test that AT does
// not depend on the order SystemC runs same-time processes in, a shuffle of it
// (ANGARA_TEST_CONSTRUCTION_SEED). Ports are bound in port order either way.
std::vector<NodeId> construction_order(NodeId nodes);

class Cut : public CutPost {
 public:
  // The cut of `config`'s torus over `ranks` (grid as requested, else the fewest cut links).
  Cut(const Config& config, const Torus& torus, const Ranks& ranks);

  const Ranks& ranks() const { return m_ranks; }
  const RankGrid& grid() const { return m_grid; }
  bool local(NodeId node) const { return m_owner[node] == m_ranks.rank(); }
  // The longest window: one cycle less than the earliest a link's effect can land.
  Cycle window() const { return m_window; }
  static LinkId link(const Torus& torus, NodeId upstream, Direction direction) {
    return static_cast<LinkId>(upstream) * static_cast<LinkId>(torus.direction_count()) +
           static_cast<LinkId>(direction.index());
  }

  // The ends of the links that cross to or from this rank, made by the machine that binds them.
  void add(LinkTx& tx, LinkId link, NodeId downstream);
  void add(LinkRx& rx, LinkId link, NodeId upstream);

  void post_packet(LinkId link, const Packet& packet) override;
  void post_credit(LinkId link, Credit credit, Cycle at) override;
  // Sends each neighbour rank what was posted for it this window and applies what it sent, in
  // the order it was posted. Every rank calls it at the same cycles.
  void exchange();
  // This rank's exchanges so far (kernel_seconds is the runner's to fill in).
  const RankWork& work() const { return m_work; }

 private:
  void add_peer(LinkId link, int rank);
  Bytes& outbox(int rank);

  const Ranks& m_ranks;
  RankGrid m_grid;
  std::vector<int> m_owner;  // [node]: its rank
  Cycle m_window;
  std::unordered_map<LinkId, LinkTx*> m_tx;
  std::unordered_map<LinkId, LinkRx*> m_rx;
  std::unordered_map<LinkId, int> m_peer_of;  // [link]: the rank at its other end
  std::vector<int> m_peers;                   // neighbour ranks, ascending
  std::vector<Bytes> m_out, m_in;             // [peer index]
  RankWork m_work;
};

// A ConfigError, before the run, for what a run over several ranks does not model yet.
void check_parallel(const Config& config, const Ranks& ranks);

}  // namespace angara
