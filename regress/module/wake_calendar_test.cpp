// WakeCalendar under the SystemC kernel: sleepers wake at the cycles they asked for, once, those
// due together in a fair, reproducible order, and the kernel stops at the last wake-up. Every
// simulation runs in a child process.

#include "models/router/wake_calendar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::run_isolated;

constexpr double kClockMhz = 500.0;

// Records each wake-up as "name@cycle" and then does what the test gave it.
class Recorder : public WakeCalendar::Sleeper {
 public:
  Recorder(std::string name, const FabricClock& clock, std::vector<std::string>& log)
      : m_name(std::move(name)), m_clock(clock), m_log(log) {}
  std::function<void()> then;

 private:
  void woken() override {
    m_log.push_back(m_name + "@" + std::to_string(m_clock.now()));
    if (then) then();
  }
  std::string m_name;
  const FabricClock& m_clock;
  std::vector<std::string>& m_log;
};

std::vector<std::string> logged(const nlohmann::json& reply) {
  return reply["log"].get<std::vector<std::string>>();
}

// The log's entries from `begin` to `end`, sorted: a round whose order is the calendar's own.
std::vector<std::string> sorted(std::vector<std::string> log, std::size_t begin, std::size_t end) {
  std::vector<std::string> round(log.begin() + begin, log.begin() + end);
  std::sort(round.begin(), round.end());
  return round;
}

TEST(WakeCalendar, EverySleeperWakesOnceAtTheCycleItAskedFor) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::string> log;
    Recorder a("a", clock, log), b("b", clock, log), c("c", clock, log);
    calendar.wake_at(b, 10);
    calendar.wake_at(c, 7);
    calendar.wake_at(a, 10);
    calendar.wake_at(c, 10);  // later than its pending 7: ignored
    sc_core::sc_start();
    return nlohmann::json{{"log", log}, {"end", clock.now()}};
  });
  const auto log = logged(reply);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "c@7");
  EXPECT_EQ(sorted(log, 1, 3), (std::vector<std::string>{"a@10", "b@10"}));
  EXPECT_EQ(reply["end"].get<Cycle>(), 10u);  // nothing after the last wake-up
}

// Eight sleepers asking, each time they wake, for the next cycle. In ask order the first would
// stay first; shuffled, each goes first about one cycle in eight, and the same way every run.
TEST(WakeCalendar, SleepersDueTogetherTakeTurnsGoingFirstTheSameWayEveryRun) {
  const auto run = [] {
    return run_isolated([] {
      FabricClock clock(kClockMhz);
      WakeCalendar calendar("calendar", clock);
      std::vector<std::string> log;
      std::vector<std::unique_ptr<Recorder>> sleepers;
      for (int i = 0; i < 8; ++i) {
        sleepers.push_back(std::make_unique<Recorder>(std::to_string(i), clock, log));
        Recorder& sleeper = *sleepers.back();
        sleeper.then = [&calendar, &clock, &sleeper] {
          if (clock.now() < 800) calendar.wake_at(sleeper, clock.now() + 1);
        };
        calendar.wake_at(sleeper, 1);
      }
      sc_core::sc_start();
      std::vector<int> first(8);
      for (std::size_t i = 0; i < log.size(); i += 8) ++first[std::stoi(log[i])];
      return nlohmann::json{{"log", log}, {"first", first}};
    });
  };
  const auto reply = run();
  const auto first = reply["first"].get<std::vector<int>>();
  EXPECT_EQ(logged(reply).size(), 800u * 8);
  for (int times : first) {  // 100 expected of each; binomial sd 9.4
    EXPECT_GT(times, 60);
    EXPECT_LT(times, 140);
  }
  EXPECT_EQ(logged(run()), logged(reply));
}

TEST(WakeCalendar, AnEarlierWakeUpReplacesThePendingOne) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::string> log;
    Recorder a("a", clock, log), b("b", clock, log);
    calendar.wake_at(a, 50);
    calendar.wake_at(b, 5);
    b.then = [&] { calendar.wake_at(a, 20); };  // a wakes at 20 only, not at 50 too
    sc_core::sc_start();
    return nlohmann::json{{"log", log}, {"end", clock.now()}};
  });
  EXPECT_EQ(logged(reply), (std::vector<std::string>{"b@5", "a@20"}));
  EXPECT_EQ(reply["end"].get<Cycle>(), 50u);  // the replaced entry's (empty) dispatch
}

TEST(WakeCalendar, AWakeUpForNowOrThePastJoinsTheRunningCycleAfterThoseDue) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::string> log;
    Recorder a("a", clock, log), b("b", clock, log), c("c", clock, log), d("d", clock, log);
    calendar.wake_at(a, 20);
    calendar.wake_at(d, 20);
    calendar.wake_at(c, 30);
    bool first = true;
    a.then = [&] {
      if (!std::exchange(first, false)) return;
      calendar.wake_now(b);
      calendar.wake_at(c, 12);  // past: now, replacing its 30
      calendar.wake_at(a, 3);   // past: now
    };
    sc_core::sc_start();
    return nlohmann::json{{"log", log}, {"end", clock.now()}};
  });
  const auto log = logged(reply);  // two rounds: those due at 20, then those asked for meanwhile
  ASSERT_EQ(log.size(), 5u);
  EXPECT_EQ(sorted(log, 0, 2), (std::vector<std::string>{"a@20", "d@20"}));
  EXPECT_EQ(sorted(log, 2, 5), (std::vector<std::string>{"a@20", "b@20", "c@20"}));
  EXPECT_EQ(reply["end"].get<Cycle>(), 30u);  // c's replaced entry: an empty dispatch
}

TEST(WakeCalendar, AWakeUpAskedForBetweenDispatchesIsKept) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::string> log;
    Recorder a("a", clock, log), b("b", clock, log);
    calendar.wake_at(a, 100);
    sc_core::sc_start(clock.period() * 40);  // paused between dispatches
    calendar.wake_at(b, 60);                 // earlier than anything pending
    calendar.wake_now(a);                    // at 40: replaces a's 100
    sc_core::sc_start();
    return nlohmann::json{{"log", log}, {"end", clock.now()}};
  });
  EXPECT_EQ(logged(reply), (std::vector<std::string>{"a@40", "b@60"}));
  EXPECT_EQ(reply["end"].get<Cycle>(), 100u);
}

TEST(WakeCalendar, WakeUpsFarAheadJoinThoseAskedForLaterAtTheSameCycle) {
  const auto reply = run_isolated([] {
    FabricClock clock(kClockMhz);
    WakeCalendar calendar("calendar", clock);
    std::vector<std::string> log;
    Recorder a("a", clock, log), b("b", clock, log), c("c", clock, log), d("d", clock, log);
    calendar.wake_at(a, 200000);  // far beyond the calendar's window of buckets
    calendar.wake_at(b, 195000);  // from there, 200000 is within the window
    calendar.wake_at(d, 200000);
    b.then = [&] { calendar.wake_at(c, 200000); };
    sc_core::sc_start();
    return nlohmann::json{{"log", log}};
  });
  const auto log = logged(reply);
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0], "b@195000");
  EXPECT_EQ(sorted(log, 1, 4), (std::vector<std::string>{"a@200000", "c@200000", "d@200000"}));
}

}  // namespace
}  // namespace angara
