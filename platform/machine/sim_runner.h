#pragma once
// Runs the SystemC kernel in slices so that a watchdog and progress reports see a run as it
// goes: "nothing delivered for sim.watchdog_cycles while work is outstanding" (or an empty event
// queue with work outstanding) becomes a ModelError naming the oldest blocked packet. Split over
// MPI ranks, a slice runs as windows with an exchange of the cut links' records after each, and
// the watchdog and progress read counts summed over the ranks at every slice's end.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "models/core/params.h"
#include "platform/machine/node_barrier.h"
#include "platform/machine/progress.h"
#include "platform/machine/system.h"

namespace angara {

class SimRunner {
 public:
  // What the watchdog watches: a count that grows with every delivery, and the amount of
  // outstanding work (packets in flight, operations not complete). Each rank counts its own
  // part; the runner sums the parts (modulo 2^64, so a part may be "negative": a rank that
  // delivers more than it injected).
  struct Watch {
    std::function<std::uint64_t()> delivered;
    std::function<std::uint64_t()> outstanding;
    // Who is stuck, for the error (every rank calls it; rank 0's answer is shown); by default
    // the oldest blocked packet.
    std::function<std::string()> blocked = {};
  };
  SimRunner(System& system, const SimParams& sim, const ProgressSink& progress, Watch watch);

  Cycle now() const { return m_system.clock().now(); }
  Cycle slice() const { return m_slice; }  // cycles the kernel runs between two looks
  double wall_seconds() const;

  // The cycle the run is planned to end at, for the progress lines' share done and ETA.
  void plan(Cycle end) { m_planned_end = end; }
  // Or the units of work done so far, when the end cycle is not known ahead.
  void count(std::function<WorkDone()> work) { m_work = std::move(work); }
  // Split over ranks, the ranks agree on the barrier's release at every window's start.
  void agree_on(NodeBarrier& barrier) { m_barrier = &barrier; }

  // Runs until `done()` holds or cycle `limit` is reached (kNever: until the kernel is idle).
  // Split over ranks, `done()` must give every rank the same answer (it may sum over them).
  void run_until(Cycle limit, const char* phase, const std::function<bool()>& done);

  // Split over ranks, the grid and every rank's work so far (complete on rank 0; every rank
  // calls it at the same point); one rank: {1, "", {}}.
  SplitRecord split_record() const;

 private:
  using WallClock = std::chrono::steady_clock;
  // The watched counts summed over the ranks.
  struct Totals {
    std::uint64_t delivered = 0, outstanding = 0, queued = 0;
  };
  Totals totals() const;
  // Runs the kernel `cycles` further, in windows when split over ranks.
  void advance(Cycle cycles);
  // The cycle of this rank's first pending event (kNever: none).
  Cycle next_event() const;
  // The first cycle any rank has something to do (kNever: none), the barrier released first if
  // every node arrived. Every rank calls it at the same points, after an exchange.
  Cycle agree();
  void check_progress();
  [[noreturn]] void deadlock(const std::string& why) const;
  void report(const char* phase);

  System& m_system;
  const SimParams& m_sim;
  const ProgressSink& m_progress;
  Watch m_watch;
  Cycle m_slice;
  WallClock::time_point m_start, m_last_report;
  std::uint64_t m_delivered = 0;
  Totals m_totals;  // at the last slice's end
  double m_kernel_seconds = 0;
  Cycle m_progress_at = 0;
  Cycle m_planned_end = 0;
  std::function<WorkDone()> m_work;
  NodeBarrier* m_barrier = nullptr;
};

}  // namespace angara
