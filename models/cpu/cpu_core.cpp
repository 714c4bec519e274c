#include "models/cpu/cpu_core.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/core/config_error.h"

namespace angara {

void CpuSignal::notify(Cycle at) {
  m_pending = std::min(m_pending, at);
  if (m_waiter != nullptr) m_waiter->signal_notified(m_pending);
}

CpuCore::CpuCore(Cycle quantum_cycles, double flops_per_cycle)
    : m_quantum(quantum_cycles), m_flops_per_cycle(flops_per_cycle) {
  if (quantum_cycles < 1) {
    throw ConfigError("cpu.quantum_cycles", std::to_string(quantum_cycles), "must be at least 1");
  }
  if (!(flops_per_cycle > 0) || !std::isfinite(flops_per_cycle)) {
    throw ConfigError("cpu.flops_per_cycle", std::to_string(flops_per_cycle),
                      "must be a positive number");
  }
}

void CpuCore::load(Task program) {
  m_program = std::move(program);
  m_wakeup = m_program.done() ? kNever : m_now;
}

void CpuCore::run(Cycle now) {
  if (m_program.done() || now < m_wakeup) return;
  m_now = now;
  m_local = std::max(m_local, now);
  // Horizons on multiples of the quantum (as TLM's global quantum): CPUs that compute alike
  // synchronise at the same kernel times.
  m_horizon = (now / m_quantum + 1) * m_quantum;
  m_wakeup = kNever;  // the awaiter the program stops at sets it
  ++m_resumes;
  m_program.resume();
  if (m_program.done()) {
    m_wakeup = kNever;
    m_program.rethrow_if_failed();
  }
}

CpuCore::ComputeAwaiter CpuCore::compute_flops(double flops) {
  if (!(flops >= 0)) throw std::invalid_argument("compute_flops: negative flop count");
  double cycles = flops / m_flops_per_cycle;
  // A quotient meant to be whole (1.1 / 0.1) must not round up to the next cycle.
  const double whole = std::nearbyint(cycles);
  if (std::abs(cycles - whole) <= 1e-9 * std::max(1.0, whole)) cycles = whole;
  return compute(static_cast<Cycle>(std::ceil(cycles)));
}

bool CpuCore::SignalAwaiter::await_ready() noexcept {
  CpuSignal* first = &signal;
  if (other != nullptr && other->m_pending < signal.m_pending) first = other;
  // One signal: a notification is taken even if ahead of local time (the program moves to it).
  // Two: only one already due, as the other may come first; else the program waits for both.
  const bool due = other == nullptr ? first->pending() : first->m_pending <= core.m_local;
  if (!due) {
    waited = true;
    return false;
  }
  first->m_taken = core.m_local;
  return core.advance_to(std::exchange(first->m_pending, kNever));
}

void CpuCore::SignalAwaiter::await_suspend(std::coroutine_handle<>) noexcept {
  if (!waited) {
    core.m_wakeup = core.m_local;  // taken at once, but local time reached the horizon
    return;
  }
  signal.m_waiter = &core;
  core.m_wakeup = signal.m_pending;
  if (other != nullptr) {
    other->m_waiter = &core;
    core.m_wakeup = std::min(core.m_wakeup, other->m_pending);
  }
}

void CpuCore::SignalAwaiter::await_resume() noexcept {
  if (!waited) return;
  // run() already moved local time to the kernel's, which is at or past the notification that
  // woke the program; a later one (the other signal's) stays for the next wait.
  for (CpuSignal* s : {&signal, other}) {
    if (s == nullptr) continue;
    s->m_waiter = nullptr;
    if (s->m_pending <= core.m_local) {
      s->m_pending = kNever;
      s->m_taken = core.m_local;
    }
  }
}

void CpuCore::signal_notified(Cycle at) {
  m_wakeup = std::min(m_wakeup, at);  // waiting on two signals: the earlier
  if (m_wake) m_wake();
}

}  // namespace angara
