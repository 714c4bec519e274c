// WakeCalendar under the SystemC kernel: sleepers wake at the cycles they asked for, once, those
// due together in a fair, reproducible order, and the kernel stops at the last wake-up. Every
// simulation runs in a child process.

#include "models/timing/wake_calendar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
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

// A calendar, its clock and sleepers that log to one log.
struct Scene {
  FabricClock clock{kClockMhz};
  WakeCalendar calendar{"calendar", clock};
  std::vector<std::string> log;
  std::deque<Recorder> sleepers;
  Recorder& sleeper(std::string name) { return sleepers.emplace_back(std::move(name), clock, log); }
};

struct Played {
  std::vector<std::string> log;
  Cycle end;  // the cycle the kernel stopped at
};

// Runs `script` (which asks for wake-ups, and may run the kernel for a while), then the kernel
// until nothing is left.
Played play(const std::function<void(Scene&)>& script) {
  const auto reply = run_isolated([&] {
    Scene scene;
    script(scene);
    sc_core::sc_start();
    return nlohmann::json{{"log", scene.log}, {"end", scene.clock.now()}};
  });
  return {reply["log"].get<std::vector<std::string>>(), reply["end"].get<Cycle>()};
}

// The log's entries from `begin` to `end`, sorted: a round whose order is the calendar's own.
std::vector<std::string> sorted(const std::vector<std::string>& log, std::size_t begin,
                                std::size_t end) {
  std::vector<std::string> round(log.begin() + static_cast<std::ptrdiff_t>(begin),
                                 log.begin() + static_cast<std::ptrdiff_t>(end));
  std::sort(round.begin(), round.end());
  return round;
}

TEST(WakeCalendar, EverySleeperWakesOnceAtTheCycleItAskedFor) {
  const Played played = play([](Scene& s) {
    Recorder &a = s.sleeper("a"), &b = s.sleeper("b"), &c = s.sleeper("c");
    s.calendar.wake_at(b, 10);
    s.calendar.wake_at(c, 7);
    s.calendar.wake_at(a, 10);
    s.calendar.wake_at(c, 10);  // later than its pending 7: ignored
  });
  ASSERT_EQ(played.log.size(), 3u);
  EXPECT_EQ(played.log[0], "c@7");
  EXPECT_EQ(sorted(played.log, 1, 3), (std::vector<std::string>{"a@10", "b@10"}));
  EXPECT_EQ(played.end, 10u);  // nothing after the last wake-up
}

// Eight sleepers asking, each time they wake, for the next cycle. In ask order the first would
// stay first; shuffled, each goes first about one cycle in eight, and the same way every run.
TEST(WakeCalendar, SleepersDueTogetherTakeTurnsGoingFirstTheSameWayEveryRun) {
  const auto script = [](Scene& s) {
    for (int i = 0; i < 8; ++i) {
      Recorder& sleeper = s.sleeper(std::to_string(i));
      sleeper.then = [&s, &sleeper] {
        if (s.clock.now() < 800) s.calendar.wake_at(sleeper, s.clock.now() + 1);
      };
      s.calendar.wake_at(sleeper, 1);
    }
  };
  const Played played = play(script);
  ASSERT_EQ(played.log.size(), 800u * 8);
  std::vector<int> first(8);
  for (std::size_t i = 0; i < played.log.size(); i += 8) ++first[std::stoi(played.log[i])];
  for (int times : first) {  // 100 expected of each; binomial sd 9.4
    EXPECT_GT(times, 60);
    EXPECT_LT(times, 140);
  }
  EXPECT_EQ(play(script).log, played.log);
}

TEST(WakeCalendar, AnEarlierWakeUpReplacesThePendingOne) {
  const Played played = play([](Scene& s) {
    Recorder &a = s.sleeper("a"), &b = s.sleeper("b");
    s.calendar.wake_at(a, 50);
    s.calendar.wake_at(b, 5);
    b.then = [&] { s.calendar.wake_at(a, 20); };  // a wakes at 20 only, not at 50 too
  });
  EXPECT_EQ(played.log, (std::vector<std::string>{"b@5", "a@20"}));
  EXPECT_EQ(played.end, 50u);  // the replaced entry's (empty) dispatch
}

TEST(WakeCalendar, AWakeUpForNowOrThePastJoinsTheRunningCycleAfterThoseDue) {
  const Played played = play([](Scene& s) {
    Recorder &a = s.sleeper("a"), &b = s.sleeper("b"), &c = s.sleeper("c"), &d = s.sleeper("d");
    s.calendar.wake_at(a, 20);
    s.calendar.wake_at(d, 20);
    s.calendar.wake_at(c, 30);
    a.then = [&, first = true]() mutable {
      if (!std::exchange(first, false)) return;
      s.calendar.wake_now(b);
      s.calendar.wake_at(c, 12);  // past: now, replacing its 30
      s.calendar.wake_at(a, 3);   // past: now
    };
  });
  // Two rounds: those due at 20, then those asked for meanwhile.
  ASSERT_EQ(played.log.size(), 5u);
  EXPECT_EQ(sorted(played.log, 0, 2), (std::vector<std::string>{"a@20", "d@20"}));
  EXPECT_EQ(sorted(played.log, 2, 5), (std::vector<std::string>{"a@20", "b@20", "c@20"}));
  EXPECT_EQ(played.end, 30u);  // c's replaced entry: an empty dispatch
}

TEST(WakeCalendar, AWakeUpAskedForBetweenDispatchesIsKept) {
  const Played played = play([](Scene& s) {
    Recorder &a = s.sleeper("a"), &b = s.sleeper("b");
    s.calendar.wake_at(a, 100);
    sc_core::sc_start(s.clock.period() * 40);  // paused between dispatches
    s.calendar.wake_at(b, 60);                 // earlier than anything pending
    s.calendar.wake_now(a);                    // at 40: replaces a's 100
  });
  EXPECT_EQ(played.log, (std::vector<std::string>{"a@40", "b@60"}));
  EXPECT_EQ(played.end, 100u);
}

TEST(WakeCalendar, WakeUpsFarAheadJoinThoseAskedForLaterAtTheSameCycle) {
  const Played played = play([](Scene& s) {
    Recorder &a = s.sleeper("a"), &b = s.sleeper("b"), &c = s.sleeper("c"), &d = s.sleeper("d");
    s.calendar.wake_at(a, 200000);  // far beyond the calendar's window of buckets
    s.calendar.wake_at(b, 195000);  // from there, 200000 is within the window
    s.calendar.wake_at(d, 200000);
    b.then = [&] { s.calendar.wake_at(c, 200000); };
  });
  ASSERT_EQ(played.log.size(), 4u);
  EXPECT_EQ(played.log[0], "b@195000");
  EXPECT_EQ(sorted(played.log, 1, 4),
            (std::vector<std::string>{"a@200000", "c@200000", "d@200000"}));
}

}  // namespace
}  // namespace angara
