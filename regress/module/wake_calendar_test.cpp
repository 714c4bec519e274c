// WakeCalendar under the SystemC kernel: sleepers wake at the cycles they asked for, once, in the
// order they asked, and the kernel stops at the last wake-up. Every simulation runs in a child
// process.

#include "models/router/wake_calendar.h"

#include <gtest/gtest.h>

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

std::vector<std::string> logged(const nlohmann::json& reply) {
  return reply["log"].get<std::vector<std::string>>();
}

TEST(WakeCalendar, SleepersDueInOneCycleWakeInTheOrderTheyAsked) {
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
  EXPECT_EQ(logged(reply), (std::vector<std::string>{"c@7", "b@10", "a@10"}));
  EXPECT_EQ(reply["end"].get<Cycle>(), 10u);  // nothing after the last wake-up
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
    Recorder a("a", clock, log), b("b", clock, log), c("c", clock, log);
    calendar.wake_at(a, 30);
    calendar.wake_at(c, 30);
    bool first = true;
    a.then = [&] {
      if (!std::exchange(first, false)) return;
      calendar.wake_now(b);
      calendar.wake_at(c, 12);  // past: now, but c is due now already
      calendar.wake_at(a, 3);   // past: now, after b
    };
    sc_core::sc_start();
    return nlohmann::json{{"log", log}};
  });
  EXPECT_EQ(logged(reply), (std::vector<std::string>{"a@30", "c@30", "b@30", "a@30"}));
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

TEST(WakeCalendar, WakeUpsFarAheadKeepTheirOrderWithThoseAskedForLater) {
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
  EXPECT_EQ(logged(reply),
            (std::vector<std::string>{"b@195000", "a@200000", "d@200000", "c@200000"}));
}

}  // namespace
}  // namespace angara
