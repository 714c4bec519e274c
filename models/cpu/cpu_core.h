#pragma once
// CpuCore: one CPU running one program (a Task) in router cycles, without SystemC. The program
// keeps its own local time and runs ahead of the kernel within a quantum (temporal decoupling);
// a timing shell (CpuModule) resumes it with run(now) at next_wakeup().

#include <coroutine>
#include <cstdint>
#include <functional>
#include <utility>

#include "models/core/ids.h"
#include "models/cpu/task.h"

namespace angara {

class CpuCore;

// A one-shot wake-up a program can co_await, notified from outside (a message's arrival).
// It holds at most one pending notification; notifying again keeps the earlier cycle.
class CpuSignal {
 public:
  // The waiting program may continue at cycle `at` (a notification in the kernel's past counts as
  // "now"); without a waiter, the next co_await of this signal takes it.
  void notify(Cycle at);
  // The same for a write the kernel made at cycle `written` (into host memory). In AT, whose
  // programs never run ahead, one written before the waiter's last taking of the signal was
  // taken with it; an LT program ahead of the kernel may have taken it first: the notification
  // is dropped, as AT's taking dropped it (what is still to be read is notified before a wait).
  void notify(Cycle at, Cycle written) {
    if (written >= m_taken || m_waiter != nullptr) notify(at);
  }
  bool pending() const { return m_pending != kNever; }
  Cycle pending_at() const { return m_pending; }

 private:
  friend class CpuCore;
  Cycle m_pending = kNever;     // earliest notified cycle not yet taken
  Cycle m_taken = 0;            // local cycle of the last taking of every notification
  CpuCore* m_waiter = nullptr;  // the core suspended on this signal
};

class CpuCore {
 public:
  // quantum_cycles: how far (>= 1) the program may run ahead, up to the next multiple of it;
  // flops_per_cycle: compute rate (> 0) for compute_flops. Throws ConfigError otherwise.
  CpuCore(Cycle quantum_cycles, double flops_per_cycle);

  // Gives the core its program, ready to start at the current kernel time.
  void load(Task program);
  // Called when a CpuSignal makes the suspended program resumable; the shell reschedules.
  void on_wake(std::function<void()> hook) { m_wake = std::move(hook); }

  // --- for the timing shell
  // The kernel cycle to call run() at next; kNever when finished or waiting on a signal.
  Cycle next_wakeup() const { return m_wakeup; }
  // Resumes the program with the kernel at `now` until it suspends or finishes; rethrows what
  // escaped the program. Does nothing before next_wakeup().
  void run(Cycle now);
  bool finished() const { return m_program.done(); }
  Cycle local_time() const { return m_local; }  // the program's own clock, >= now()
  Cycle now() const { return m_now; }           // kernel cycle of the current or last run
  Cycle horizon() const { return m_horizon; }   // the program suspends on reaching it
  std::uint64_t resumes() const { return m_resumes; }

  // --- awaitables for the program
  struct [[nodiscard]] ComputeAwaiter {
    CpuCore& core;
    Cycle cycles;
    bool await_ready() noexcept { return core.advance_to(core.m_local + cycles); }
    void await_suspend(std::coroutine_handle<>) noexcept { core.m_wakeup = core.m_local; }
    void await_resume() const noexcept {}
  };
  struct [[nodiscard]] WaitUntilAwaiter {
    CpuCore& core;
    Cycle at;
    bool await_ready() const noexcept { return at <= core.m_now; }
    void await_suspend(std::coroutine_handle<>) noexcept { core.m_wakeup = at; }
    void await_resume() const noexcept {}
  };
  struct [[nodiscard]] SignalAwaiter {
    CpuCore& core;
    CpuSignal& signal;
    CpuSignal* other = nullptr;  // wait_any: the second signal
    bool waited = false;         // suspended before a notification came
    bool await_ready() noexcept;
    void await_suspend(std::coroutine_handle<>) noexcept;
    void await_resume() noexcept;
  };

  // A call that reads what other modules write for the program and costs CPU time: `poll()`
  // reads at local time and returns {answer, cycle the call ends}, a false answer for "nothing".
  // Ahead of the kernel (LT) it may read before a module behind has written what AT, whose
  // kernel is at the program's time, would have shown; so "nothing" is read again once the
  // kernel has caught up. What was found stands: what has landed stays.
  template <typename Poll>
  struct [[nodiscard]] PollAwaiter {
    CpuCore& core;
    Poll poll;
    decltype(std::declval<Poll&>()()) answer{};
    bool again = false;
    bool await_ready() {
      answer = poll();
      again = !answer.first && core.m_local > core.m_now;
      return !again && core.advance_to(answer.second);
    }
    void await_suspend(std::coroutine_handle<>) noexcept { core.m_wakeup = core.m_local; }
    auto await_resume() {
      if (again) {
        answer = poll();
        core.advance_to(answer.second);  // past the horizon, the next call suspends
      }
      return std::move(answer.first);
    }
  };

  // Spends `cycles` of local time; suspends only if that reaches the horizon.
  ComputeAwaiter compute(Cycle cycles) { return {*this, cycles}; }
  template <typename Poll>
  PollAwaiter<Poll> poll(Poll poll) {
    return {*this, std::move(poll)};
  }
  // Spends ceil(flops / flops_per_cycle) cycles; throws std::invalid_argument if flops < 0.
  ComputeAwaiter compute_flops(double flops);
  // Suspends until the kernel reaches `at` (always, if `at` is later than now()).
  WaitUntilAwaiter wait_until(Cycle at) { return {*this, at}; }
  // Continues once `signal` is notified, at no earlier local time than the notification.
  SignalAwaiter wait(CpuSignal& signal) { return {*this, signal}; }
  // Continues once either signal's notification is due (not ahead of local time); the other
  // keeps a later one for the next wait.
  SignalAwaiter wait_any(CpuSignal& a, CpuSignal& b) { return {*this, a, &b}; }

 private:
  friend class CpuSignal;
  // Local time moves to `local` (never back); true while it stays below the horizon.
  bool advance_to(Cycle local) {
    if (local > m_local) m_local = local;
    return m_local < m_horizon;
  }
  void signal_notified(Cycle at);

  Task m_program;
  Cycle m_quantum;
  double m_flops_per_cycle;
  Cycle m_now = 0;
  Cycle m_local = 0;
  Cycle m_horizon = 0;
  Cycle m_wakeup = kNever;
  std::uint64_t m_resumes = 0;
  std::function<void()> m_wake;
};

}  // namespace angara
