#include "platform/machine/sim_runner.h"

#include <fmt/format.h>

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
  while (!done() && now() < limit) {
    if (limit == kNever && !sc_core::sc_pending_activity()) {
      if (m_watch.outstanding() > 0) deadlock("no event is pending");
      return;
    }
    const Cycle slice = std::min(m_slice, limit - now());
    sc_core::sc_start(m_system.clock().period() * static_cast<double>(slice));
    check_progress();
    report(phase);
  }
}

void SimRunner::check_progress() {
  const auto delivered = m_watch.delivered();
  if (delivered != m_delivered || m_watch.outstanding() == 0) {
    m_delivered = delivered;
    m_progress_at = now();
  } else if (now() - m_progress_at >= m_sim.watchdog_cycles) {
    deadlock(fmt::format("nothing delivered for {} cycles", now() - m_progress_at));
  }
}

void SimRunner::deadlock(const std::string& why) const {
  if (m_watch.blocked) {
    throw ModelError(fmt::format("deadlock at cycle {}: {}; {}", now(), why, m_watch.blocked()));
  }
  throw ModelError(fmt::format("deadlock at cycle {}: {} with {} outstanding; oldest blocked: {}",
                               now(), why, m_watch.outstanding(),
                               m_system.oldest_blocked(now()).value_or("none")));
}

void SimRunner::report(const char* phase) {
  if (!m_sim.progress || !m_progress ||
      std::chrono::duration<double>(WallClock::now() - m_last_report).count() < 2.0) {
    return;
  }
  m_last_report = WallClock::now();
  const double wall = wall_seconds();
  m_progress(progress_line({wall, phase, now(), m_planned_end,
                            wall > 0 ? static_cast<double>(now()) / wall : 0.0, m_watch.delivered(),
                            m_watch.outstanding(), m_system.queued_at_sources(),
                            m_work ? m_work() : WorkDone{}}));
}

}  // namespace angara
