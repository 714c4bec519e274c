#pragma once
// A barrier of every node's program: released a fixed latency after the last node arrives, so the
// next step starts at the same cycle everywhere. Split over MPI ranks, the ranks learn that every
// node arrived only at a window's end; the latency, at least a window long, keeps the release in
// every rank's future, so a split run releases at the cycle a one-process run does.

#include <cstdint>
#include <functional>

#include "models/core/ids.h"

namespace angara {

class NodeBarrier {
 public:
  NodeBarrier() = default;
  // `local` of the machine's nodes arrive on this rank; `split`: the machine is split over ranks.
  NodeBarrier(int local, Cycle latency, bool split);

  // `release(at)` is called once every node has arrived: the programs go on at cycle `at`.
  void on_release(std::function<void(Cycle at)> release) { m_release = std::move(release); }
  // One of this rank's nodes arrived at cycle `at`.
  void arrive(Cycle at);

  // Split over ranks: this rank's word in a window's agreement (the minimum over the ranks is
  // agreed), and the agreed word applied: the release's cycle, or kNever if not every node
  // arrived.
  std::uint64_t word() const;
  Cycle agreed(std::uint64_t word);

 private:
  Cycle release(Cycle latest);

  int m_local = 0;
  Cycle m_latency = 0;
  bool m_split = false;
  int m_arrived = 0;
  Cycle m_latest = 0;  // of this rank's arrivals
  std::function<void(Cycle)> m_release;
};

}  // namespace angara
