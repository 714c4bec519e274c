// CpuCore and Task without SystemC: a loop stands in for the kernel, running the core at each
// next_wakeup() in turn.

#include "models/cpu/cpu_core.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/core/config_error.h"

namespace angara {
namespace {

// Runs the core at each wake-up until it finishes or waits on a signal; returns the run times.
std::vector<Cycle> drive(CpuCore& core) {
  std::vector<Cycle> runs;
  while (!core.finished() && core.next_wakeup() != kNever) {
    runs.push_back(core.next_wakeup());
    core.run(core.next_wakeup());
  }
  return runs;
}

// (kernel now, local time) as the program sees them after each step.
using Trace = std::vector<std::pair<Cycle, Cycle>>;

Task computes(CpuCore& cpu, std::vector<Cycle> steps, Trace& trace) {
  for (Cycle c : steps) {
    co_await cpu.compute(c);
    trace.emplace_back(cpu.now(), cpu.local_time());
  }
}

TEST(CpuCore, ComputeSuspendsOnlyWhenLocalTimeReachesTheHorizon) {
  CpuCore cpu(100, 1.0);
  Trace trace;
  cpu.load(computes(cpu, {30, 30, 30, 30, 50, 30, 250, 49}, trace));
  const auto runs = drive(cpu);
  EXPECT_TRUE(cpu.finished());
  const Trace expected = {
      {0, 30},    {0, 60},    {0, 90},  // inside the first quantum: no suspension
      {120, 120},                       // 120 >= 100: the kernel catches up with the CPU
      {120, 170}, {200, 200},  // the horizon is now 200 (quantum boundary), reached exactly
      {450, 450},              // one long compute across several quanta: one suspension
      {450, 499},              // below the horizon 500
  };
  EXPECT_EQ(trace, expected);
  EXPECT_EQ(runs, (std::vector<Cycle>{0, 120, 200, 450}));
  EXPECT_EQ(cpu.resumes(), 4u);
  EXPECT_EQ(cpu.local_time(), 499u);
}

TEST(CpuCore, ComputeFlopsRoundsUpToWholeCycles) {
  CpuCore cpu(1000, 4.0);
  Trace trace;
  auto program = [](CpuCore& c, Trace& t) -> Task {
    co_await c.compute_flops(10);  // 2.5 cycles -> 3
    t.emplace_back(c.now(), c.local_time());
    co_await c.compute_flops(8);  // exactly 2
    t.emplace_back(c.now(), c.local_time());
    co_await c.compute_flops(0);
    t.emplace_back(c.now(), c.local_time());
  };
  cpu.load(program(cpu, trace));
  drive(cpu);
  EXPECT_EQ(trace, (Trace{{0, 3}, {0, 5}, {0, 5}}));

  CpuCore slow(1000, 0.1);
  Trace slow_trace;
  auto eleven = [](CpuCore& c, Trace& t) -> Task {
    co_await c.compute_flops(1.1);  // 1.1 / 0.1 is 11.000000000000002 in doubles: still 11
    t.emplace_back(c.now(), c.local_time());
  };
  slow.load(eleven(slow, slow_trace));
  drive(slow);
  EXPECT_EQ(slow_trace, (Trace{{0, 11}}));
}

TEST(CpuCore, RejectsABadQuantumOrRate) {
  EXPECT_THROW(CpuCore(0, 1.0), ConfigError);
  EXPECT_THROW(CpuCore(100, 0.0), ConfigError);
  EXPECT_THROW(CpuCore(100, -2.0), ConfigError);
}

Task grandchild(CpuCore& cpu, std::vector<std::string>& log) {
  log.push_back("g begin");
  co_await cpu.compute(250);  // suspends inside the innermost task
  log.push_back("g end at " + std::to_string(cpu.now()));
}

Task child(CpuCore& cpu, std::vector<std::string>& log) {
  log.push_back("c begin");
  co_await grandchild(cpu, log);
  log.push_back("c middle");
  co_await cpu.wait_until(cpu.now() + 10);
  log.push_back("c end at " + std::to_string(cpu.now()));
}

Task parent(CpuCore& cpu, std::vector<std::string>& log) {
  log.push_back("p begin");
  co_await child(cpu, log);
  log.push_back("p middle");
  co_await child(cpu, log);
  log.push_back("p end");
}

TEST(Task, NestedTasksCompleteBeforeTheirParentContinues) {
  CpuCore cpu(100, 1.0);
  std::vector<std::string> log;
  cpu.load(parent(cpu, log));
  EXPECT_TRUE(log.empty());  // lazy: nothing runs before the first run()
  drive(cpu);
  const std::vector<std::string> expected = {"p begin",  "c begin",      "g begin",  "g end at 250",
                                             "c middle", "c end at 260", "p middle", "c begin",
                                             "g begin",  "g end at 510", "c middle", "c end at 520",
                                             "p end"};
  EXPECT_EQ(log, expected);
  EXPECT_TRUE(cpu.finished());
}

Task empty_child(int& count) {
  ++count;
  co_return;
}

Task many_children(int& count, int n) {
  for (int i = 0; i < n; ++i) co_await empty_child(count);
}

// Each child finishes by transferring straight back to its parent, so a long loop of awaits
// does not grow the stack.
TEST(Task, AMillionSequentialChildrenDoNotGrowTheStack) {
  int count = 0;
  Task t = many_children(count, 1'000'000);
  t.resume();
  EXPECT_TRUE(t.done());
  EXPECT_EQ(count, 1'000'000);
}

Task thrower(CpuCore& cpu) {
  co_await cpu.compute(500);
  throw std::runtime_error("bad program");
}

Task catcher(CpuCore& cpu, std::string& caught) {
  try {
    co_await thrower(cpu);
  } catch (const std::runtime_error& e) {
    caught = e.what();
  }
  co_await cpu.compute(1);
}

TEST(Task, AChildsExceptionReachesTheAwaitingParent) {
  CpuCore cpu(100, 1.0);
  std::string caught;
  cpu.load(catcher(cpu, caught));
  drive(cpu);
  EXPECT_EQ(caught, "bad program");
  EXPECT_TRUE(cpu.finished());
  EXPECT_EQ(cpu.local_time(), 501u);
}

Task rethrower(CpuCore& cpu) {
  co_await thrower(cpu);
}

TEST(Task, AnEscapingExceptionReachesTheOwner) {
  CpuCore cpu(100, 1.0);
  cpu.load(rethrower(cpu));
  cpu.run(0);
  EXPECT_EQ(cpu.next_wakeup(), 500u);
  EXPECT_THROW(cpu.run(500), std::runtime_error);
  EXPECT_TRUE(cpu.finished());
  EXPECT_EQ(cpu.next_wakeup(), kNever);

  Task bare = [](CpuCore& c) -> Task {
    co_await c.compute(0);
    throw std::logic_error("bare");
  }(cpu);
  EXPECT_NO_THROW(bare.rethrow_if_failed());  // not started yet
  bare.resume();
  EXPECT_TRUE(bare.done());
  EXPECT_THROW(bare.rethrow_if_failed(), std::logic_error);
}

TEST(CpuCore, WaitUntilSuspendsUntilTheKernelReachesTheCycle) {
  CpuCore cpu(100, 1.0);
  Trace trace;
  auto program = [](CpuCore& c, Trace& t) -> Task {
    co_await c.wait_until(50);  // inside the quantum, but it still suspends
    t.emplace_back(c.now(), c.local_time());
    co_await c.wait_until(40);  // already past: no suspension
    t.emplace_back(c.now(), c.local_time());
    co_await c.compute(30);
    co_await c.wait_until(60);  // local time (80) is ahead of it: it stays
    t.emplace_back(c.now(), c.local_time());
    co_await c.wait_until(90);
    t.emplace_back(c.now(), c.local_time());
  };
  cpu.load(program(cpu, trace));
  const auto runs = drive(cpu);
  EXPECT_EQ(runs, (std::vector<Cycle>{0, 50, 60, 90}));
  EXPECT_EQ(trace, (Trace{{50, 50}, {50, 50}, {60, 80}, {90, 90}}));
}

Task waiter(CpuCore& cpu, CpuSignal& signal, Cycle compute_first, Trace& trace) {
  co_await cpu.compute(compute_first);
  co_await cpu.wait(signal);
  trace.emplace_back(cpu.now(), cpu.local_time());
  co_await cpu.wait(signal);  // taken: the next wait needs a new notification
  trace.emplace_back(cpu.now(), cpu.local_time());
}

TEST(CpuSignal, NotifiedBeforeTheWaitIsTakenWithoutSuspending) {
  CpuCore cpu(100, 1.0);
  CpuSignal signal;
  Trace trace;
  signal.notify(70);
  signal.notify(90);  // the earlier notification stands
  EXPECT_EQ(signal.pending_at(), 70u);
  cpu.load(waiter(cpu, signal, 10, trace));
  cpu.run(0);
  EXPECT_EQ(trace, (Trace{{0, 70}}));  // local time moved to the notification, no suspension
  EXPECT_FALSE(signal.pending());
  EXPECT_EQ(cpu.next_wakeup(), kNever);  // waiting for a second notification

  signal.notify(250);  // past the horizon: taken on resuming at 250
  EXPECT_EQ(cpu.next_wakeup(), 250u);
  drive(cpu);
  EXPECT_EQ(trace, (Trace{{0, 70}, {250, 250}}));
  EXPECT_TRUE(cpu.finished());
}

TEST(CpuSignal, NotifiedAfterTheWaitWakesTheCpuAtTheNotifiedCycle) {
  CpuCore cpu(100, 1.0);
  CpuSignal signal;
  Trace trace;
  int wakes = 0;
  cpu.on_wake([&] { ++wakes; });
  cpu.load(waiter(cpu, signal, 40, trace));
  cpu.run(0);
  EXPECT_EQ(cpu.next_wakeup(), kNever);
  EXPECT_EQ(wakes, 0);
  signal.notify(30);  // before the CPU's local time (40): it wakes at 30, local time stays 40
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(cpu.next_wakeup(), 30u);
  cpu.run(20);  // too early: nothing happens
  EXPECT_TRUE(trace.empty());
  cpu.run(30);
  EXPECT_EQ(trace, (Trace{{30, 40}}));
  EXPECT_EQ(cpu.next_wakeup(), kNever);
  signal.notify(180);
  EXPECT_EQ(wakes, 2);
  cpu.run(180);
  EXPECT_EQ(trace, (Trace{{30, 40}, {180, 180}}));
  EXPECT_TRUE(cpu.finished());
}

Task either(CpuCore& cpu, CpuSignal& a, CpuSignal& b, Trace& trace) {
  for (int i = 0; i < 3; ++i) {
    co_await cpu.wait_any(a, b);
    trace.emplace_back(cpu.now(), cpu.local_time());
  }
}

TEST(CpuSignal, WaitAnyWakesAtTheEarlierAndKeepsTheLaterForTheNextWait) {
  CpuCore cpu(100, 1.0);
  CpuSignal a, b;
  Trace trace;
  b.notify(160);  // pending before the first wait, but ahead of local time: a may come first
  cpu.load(either(cpu, a, b, trace));
  cpu.run(0);
  EXPECT_EQ(cpu.next_wakeup(), 160u);
  a.notify(130);  // earlier than b's: the CPU wakes at it
  EXPECT_EQ(cpu.next_wakeup(), 130u);
  cpu.run(130);
  EXPECT_EQ(trace, (Trace{{130, 130}}));
  EXPECT_FALSE(a.pending());
  EXPECT_TRUE(b.pending());  // not yet due: kept for the next wait
  EXPECT_EQ(cpu.next_wakeup(), 160u);
  cpu.run(160);
  EXPECT_EQ(trace, (Trace{{130, 130}, {160, 160}}));
  EXPECT_FALSE(b.pending());
  a.notify(150);  // in the kernel's past: due at once
  cpu.run(160);
  EXPECT_EQ(trace, (Trace{{130, 130}, {160, 160}, {160, 160}}));
  EXPECT_TRUE(cpu.finished());
}

// Two signals bounced between two cores, each reply sent `delay` after the message arrived.
Task bouncer(CpuCore& cpu, CpuSignal& in, CpuSignal& out, bool serve, int rounds, Cycle delay) {
  for (int i = 0; i < rounds; ++i) {
    if (serve) out.notify(cpu.local_time() + delay);
    co_await cpu.wait(in);
    if (!serve) out.notify(cpu.local_time() + delay);
  }
}

TEST(CpuSignal, PingPongBetweenTwoCores) {
  CpuCore a(100, 1.0);
  CpuCore b(100, 1.0);
  CpuSignal to_a;
  CpuSignal to_b;
  a.load(bouncer(a, to_a, to_b, true, 5, 7));
  b.load(bouncer(b, to_b, to_a, false, 5, 7));
  while (!a.finished() || !b.finished()) {
    const Cycle next = std::min(a.next_wakeup(), b.next_wakeup());
    ASSERT_NE(next, kNever);
    a.run(next);
    b.run(next);
  }
  EXPECT_EQ(a.local_time(), 70u);  // 5 round trips of 2 x 7 cycles
  EXPECT_EQ(b.local_time(), 63u);
}

// A poll that finds nothing while the program is ahead of the kernel is read again once the kernel
// has reached local time: a module behind may write what AT would have shown by then.
TEST(CpuCore, APollFindingNothingAheadOfTheKernelReadsAgainWhenItCatchesUp) {
  CpuCore cpu(100, 1.0);
  int value = 0;  // what another module writes; the poll costs 10 cycles
  Trace trace;
  std::vector<int> answers;
  auto program = [&]() -> Task {
    co_await cpu.compute(30);  // ahead of the kernel (0)
    answers.push_back(co_await cpu.poll([&] { return std::pair{value, cpu.local_time() + 10}; }));
    trace.emplace_back(cpu.now(), cpu.local_time());
    answers.push_back(co_await cpu.poll([&] { return std::pair{value, cpu.local_time() + 10}; }));
    trace.emplace_back(cpu.now(), cpu.local_time());
  };
  cpu.load(program());
  cpu.run(0);
  EXPECT_EQ(cpu.next_wakeup(), 30u);  // found nothing at 30, the kernel at 0: waits for it
  value = 7;                          // written at a kernel cycle before 30
  cpu.run(30);
  EXPECT_EQ(answers, (std::vector<int>{7, 7}));  // the second poll found it at once
  EXPECT_EQ(trace, (Trace{{30, 40}, {30, 50}}));
  EXPECT_TRUE(cpu.finished());
}

// A write the kernel made before the program's last taking of a signal (at a later local time)
// does not notify it again, unless the program waits on it: AT had taken it with the rest.
TEST(CpuSignal, AWriteFromBeforeTheLastTakingDoesNotNotifyAgain) {
  CpuCore cpu(100, 1.0);
  CpuSignal signal;
  Trace trace;
  auto program = [&]() -> Task {
    co_await cpu.compute(50);
    co_await cpu.wait(signal);  // takes the notification at local time 50
    trace.emplace_back(cpu.now(), cpu.local_time());
    co_await cpu.compute(60);  // to 110: past the horizon, suspends
    co_await cpu.wait(signal);
    trace.emplace_back(cpu.now(), cpu.local_time());
    co_await cpu.wait(signal);
    trace.emplace_back(cpu.now(), cpu.local_time());
  };
  signal.notify(40);
  cpu.load(program());
  cpu.run(0);
  EXPECT_EQ(trace, (Trace{{0, 50}}));
  signal.notify(70, 45);  // written before the taking, nobody waiting: dropped
  EXPECT_FALSE(signal.pending());
  signal.notify(90, 60);  // written after it: kept
  EXPECT_EQ(signal.pending_at(), 90u);
  cpu.run(110);
  EXPECT_EQ(trace, (Trace{{0, 50}, {110, 110}}));
  EXPECT_EQ(cpu.next_wakeup(), kNever);  // waiting
  signal.notify(130, 45);                // written long before, but the program waits: wakes it
  EXPECT_EQ(cpu.next_wakeup(), 130u);
  drive(cpu);
  EXPECT_EQ(trace, (Trace{{0, 50}, {110, 110}, {130, 130}}));
  EXPECT_TRUE(cpu.finished());
}
}  // namespace
}  // namespace angara
