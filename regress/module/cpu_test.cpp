// CpuModule under the SystemC kernel: programs resumed by one SC_METHOD per CPU finish at the
// cycles the quantum rule and the signal delays give. Every simulation runs in a child process.

#include "models/cpu/cpu_at.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::IsolatedError;
using test::run_isolated;

constexpr double kClockMhz = 500.0;
constexpr Cycle kQuantum = 100;
constexpr int kSteps = 1000;

// Step k of CPU i: mostly short, every 97th step longer than a quantum.
Cycle step_cycles(int cpu, int k) {
  return k % 97 == 96 ? 250 : 1 + static_cast<Cycle>((cpu * 7 + k) % 13);
}

struct Finish {
  Cycle now = kNever;    // kernel cycle of the run that finished the program
  Cycle local = kNever;  // the program's local time at the end
};

Task compute_steps(CpuCore& cpu, int index, Finish& finish) {
  for (int k = 0; k < kSteps; ++k) co_await cpu.compute(step_cycles(index, k));
  finish = {cpu.now(), cpu.local_time()};
}

// The quantum rule on its own: local time adds up; the kernel catches up whenever it reaches the
// next multiple of the quantum after the kernel's time.
Finish expected_finish(int index) {
  Cycle local = 0;
  Cycle now = 0;
  for (int k = 0; k < kSteps; ++k) {
    local += step_cycles(index, k);
    if (local >= (now / kQuantum + 1) * kQuantum) now = local;
  }
  return {now, local};
}

// With `on_calendar`, the CPUs are woken by a WakeCalendar (as in LT) instead of their events.
void expect_thousand_cpus_finish_at_the_expected_local_times(bool on_calendar) {
  constexpr int kCpus = 1024;
  const auto reply = run_isolated([on_calendar] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::unique_ptr<CpuModule>> cpus;
    std::vector<Finish> finish(kCpus);
    for (int i = 0; i < kCpus; ++i) {
      cpus.push_back(
          std::make_unique<CpuModule>(("cpu_" + std::to_string(i)).c_str(), kQuantum, 1.0, clock));
      if (on_calendar) cpus.back()->wake_on(calendar);
      cpus.back()->load(compute_steps(cpus.back()->core(), i, finish[i]));
    }
    sc_core::sc_start();
    nlohmann::json j = nlohmann::json::array();
    for (int i = 0; i < kCpus; ++i) {
      j.push_back({finish[i].now, finish[i].local, cpus[i]->core().finished()});
    }
    return nlohmann::json{{"cpus", j}, {"end", clock.now()}};
  });
  Cycle last = 0;
  for (int i = 0; i < kCpus; ++i) {
    const auto& cpu = reply["cpus"][i];
    const Finish expected = expected_finish(i);
    ASSERT_TRUE(cpu[2].get<bool>()) << "cpu " << i;
    EXPECT_EQ(cpu[0].get<Cycle>(), expected.now) << "cpu " << i;
    EXPECT_EQ(cpu[1].get<Cycle>(), expected.local) << "cpu " << i;
    last = std::max(last, expected.now);
  }
  EXPECT_EQ(reply["end"].get<Cycle>(), last);  // no event after the last program ends
}

TEST(CpuModule, ThousandCpusFinishAtTheExpectedLocalTimes) {
  expect_thousand_cpus_finish_at_the_expected_local_times(false);
}

TEST(CpuModule, ThousandCpusOnAWakeCalendarFinishAtTheExpectedLocalTimes) {
  expect_thousand_cpus_finish_at_the_expected_local_times(true);
}

constexpr int kRounds = 50;
constexpr Cycle kDelay = 37;      // message latency, cycles
constexpr Cycle kTurnaround = 5;  // the server's compute before replying

Task client(CpuCore& cpu, CpuSignal& request, CpuSignal& reply, Finish& finish) {
  for (int i = 0; i < kRounds; ++i) {
    request.notify(cpu.local_time() + kDelay);
    co_await cpu.wait(reply);
  }
  finish = {cpu.now(), cpu.local_time()};
}

Task server(CpuCore& cpu, CpuSignal& request, CpuSignal& reply) {
  for (int i = 0; i < kRounds; ++i) {
    co_await cpu.wait(request);
    co_await cpu.compute(kTurnaround);
    reply.notify(cpu.local_time() + kDelay);
  }
}

TEST(CpuModule, PingPongThroughSignalsFinishesAtTheComputedCycle) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    CpuModule a("a", kQuantum, 1.0, clock);
    CpuModule b("b", kQuantum, 1.0, clock);
    CpuSignal request;
    CpuSignal answer;
    Finish finish;
    a.load(client(a.core(), request, answer, finish));
    b.load(server(b.core(), request, answer));
    sc_core::sc_start();
    return nlohmann::json{{"now", finish.now},
                          {"local", finish.local},
                          {"end", clock.now()},
                          {"server_done", b.core().finished()}};
  });
  const Cycle expected = kRounds * (2 * kDelay + kTurnaround);
  EXPECT_EQ(reply["local"].get<Cycle>(), expected);
  EXPECT_EQ(reply["now"].get<Cycle>(), expected);  // woken by the last reply's arrival
  EXPECT_EQ(reply["end"].get<Cycle>(), expected);
  EXPECT_TRUE(reply["server_done"].get<bool>());
}

Task short_program(CpuCore& cpu, Finish& finish) {
  co_await cpu.compute(150);
  finish = {cpu.now(), cpu.local_time()};
}

TEST(CpuModule, AProgramLoadedWhileThePausedKernelIsAtACycleStartsThere) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    CpuModule cpu("cpu", kQuantum, 1.0, clock);
    sc_core::sc_start(clock.period() * 1000);
    Finish finish;
    cpu.load(short_program(cpu.core(), finish));
    sc_core::sc_start();
    return nlohmann::json{{"now", finish.now}, {"local", finish.local}};
  });
  EXPECT_EQ(reply["now"].get<Cycle>(), 1150u);
  EXPECT_EQ(reply["local"].get<Cycle>(), 1150u);
}

Task failing_program(CpuCore& cpu) {
  co_await cpu.compute(500);
  throw std::runtime_error("the program failed");
}

TEST(CpuModule, AProgramsExceptionStopsTheSimulation) {
  try {
    run_isolated([] {
      FabricClock clock(kClockMhz);
      CpuModule cpu("cpu", kQuantum, 1.0, clock);
      cpu.load(failing_program(cpu.core()));
      sc_core::sc_start();
      return nlohmann::json{};
    });
    FAIL() << "expected the program's exception";
  } catch (const IsolatedError& e) {
    EXPECT_NE(std::string(e.what()).find("the program failed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace angara
