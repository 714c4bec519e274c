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
  if (!signal.pending()) {
    waited = true;
    return false;
  }
  return core.advance_to(std::exchange(signal.m_pending, kNever));
}

void CpuCore::SignalAwaiter::await_suspend(std::coroutine_handle<>) noexcept {
  if (!waited) {
    core.m_wakeup = core.m_local;  // taken at once, but local time reached the horizon
    return;
  }
  signal.m_waiter = &core;
  core.m_wakeup = kNever;
}

void CpuCore::SignalAwaiter::await_resume() noexcept {
  if (!waited) return;
  // run() already moved local time to the kernel's, which is at or past the notification.
  signal.m_waiter = nullptr;
  signal.m_pending = kNever;
}

void CpuCore::signal_notified(Cycle at) {
  m_wakeup = at;
  if (m_wake) m_wake();
}

}  // namespace angara
