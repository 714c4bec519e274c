#include "platform/machine/sim_runner.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <array>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

SimRunner::SimRunner(System& system, const SimParams& sim, const ProgressSink& progress,
                     Watch watch)
    : m_system(system),
      m_sim(sim),
      m_progress(progress),
      m_watch(std::move(watch)),
      m_slice(std::max<Cycle>(1, std::min<Cycle>(1000, sim.watchdog_cycles / 4))),
      m_start(WallClock::now()),
      m_last_report(m_start) {}

double SimRunner::wall_seconds() const {
  return std::chrono::duration<double>(WallClock::now() - m_start).count();
}

void SimRunner::run_until(Cycle limit, const char* phase, const std::function<bool()>& done) {
  m_progress_at = now();
  // Before the first start nothing is pending yet: initialise (processes run once at time 0).
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const Ranks& ranks = m_system.ranks();
  while (!done() && now() < limit) {
    // After an exchange nothing is on its way between ranks: idle everywhere is idle.
    if (limit == kNever && agree() == kNever) {
      if (ranks.sum(m_watch.outstanding()) > 0) deadlock("no event is pending");
      return;
    }
    advance(std::min(m_slice, limit - now()));
    check_progress();
    report(phase);
  }
}

void SimRunner::advance(Cycle cycles) {
  const auto start = WallClock::now();
  Cut* cut = m_system.cut();
  if (!cut) {
    sc_core::sc_start(m_system.clock().period() * static_cast<double>(cycles));
  } else {
    // sc_start(T) returns with the events at T triggered but not run: a record landing at T
    // would come too late, so windows are shorter than the earliest a record can land. After an
    // exchange nothing is on its way, so no rank does anything before the first event any rank
    // has pending: the ranks agree on it and run idle cycles up to it in the same window.
    for (const Cycle end = now() + cycles; now() < end;) {
      const Cycle first_event = agree();
      const Cycle from = std::max(now(), std::min(first_event, end));
      const Cycle window = std::min(from - now() + cut->window(), end - now());
      sc_core::sc_start(m_system.clock().period() * static_cast<double>(window));
      const auto ran = WallClock::now();
      cut->exchange();
      m_kernel_seconds -= std::chrono::duration<double>(WallClock::now() - ran).count();
    }
  }
  m_kernel_seconds += std::chrono::duration<double>(WallClock::now() - start).count();
}

Cycle SimRunner::next_event() const {
  if (!sc_core::sc_pending_activity()) return kNever;
  const sc_core::sc_time to = sc_core::sc_time_to_pending_activity();
  return now() + to.value() / m_system.clock().period().value();
}

Cycle SimRunner::agree() {
  if (!m_system.cut()) return next_event();
  std::array<std::uint64_t, 2> words{next_event(), m_barrier ? m_barrier->word() : 0};
  m_system.ranks().min(words);
  if (!m_barrier) return words[0];
  const Cycle release = m_barrier->agreed(words[1]);
  if (release < now()) {  // only with windows longer than the lookahead (a test of the check)
    shared_model_error(report_id::kLookahead,
                       fmt::format("the nodes' barrier was agreed at cycle {}, after its release "
                                   "at cycle {}: windows are longer than the lookahead",
                                   now(), release));
  }
  return std::min(words[0], release);
}

SimRunner::Totals SimRunner::totals() const {
  std::array<std::uint64_t, 3> counts{m_watch.delivered(), m_watch.outstanding(),
                                      m_system.queued_at_sources()};
  m_system.ranks().sum(counts);
  return {counts[0], counts[1], counts[2]};
}

SplitRecord SimRunner::split_record() const {
  const Cut* cut = m_system.cut();
  if (!cut) return {};
  RankWork mine = cut->work();
  mine.kernel_seconds = m_kernel_seconds;
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    mine.peak_memory_kib = static_cast<std::uint64_t>(usage.ru_maxrss);
  Bytes bytes;
  put(bytes, mine);
  SplitRecord record{m_system.ranks().size(), cut->grid().text(), {}};
  for (const Bytes& theirs : m_system.ranks().gather(bytes)) {
    std::size_t at = 0;
    record.work.push_back(take<RankWork>(theirs, at));
  }
  return record;
}

void SimRunner::check_progress() {
  m_totals = totals();
  const auto delivered = m_totals.delivered;
  if (delivered != m_delivered || m_totals.outstanding == 0) {
    m_delivered = delivered;
    m_progress_at = now();
  } else if (now() - m_progress_at >= m_sim.watchdog_cycles) {
    deadlock(fmt::format("nothing delivered for {} cycles", now() - m_progress_at));
  }
}

void SimRunner::deadlock(const std::string& why) const {
  // Every rank is here at the same cycle (the counts are summed); rank 0 reports.
  if (m_watch.blocked) {
    shared_model_error(report_id::kDeadlock,
                       fmt::format("deadlock at cycle {}: {}; {}", now(), why, m_watch.blocked()));
  }
  const std::uint64_t outstanding = m_system.ranks().sum(m_watch.outstanding());
  shared_model_error(
      report_id::kDeadlock,
      fmt::format("deadlock at cycle {}: {} with {} outstanding; oldest blocked: {}", now(), why,
                  outstanding, m_system.oldest_blocked(now()).value_or("none")));
}

void SimRunner::report(const char* phase) {
  if (!m_sim.progress || !m_progress ||
      std::chrono::duration<double>(WallClock::now() - m_last_report).count() < 2.0) {
    return;
  }
  m_last_report = WallClock::now();
  const double wall = wall_seconds();
  m_progress(progress_line(
      {wall, phase, now(), m_planned_end, wall > 0 ? static_cast<double>(now()) / wall : 0.0,
       m_totals.delivered, m_totals.outstanding, m_totals.queued, m_work ? m_work() : WorkDone{}}));
}

}  // namespace angara
