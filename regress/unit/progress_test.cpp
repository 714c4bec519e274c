// The progress line a long run prints: how far, of how much, at what pace and how long to go.
#include "platform/machine/progress.h"

#include <gtest/gtest.h>

#include "models/core/duration_text.h"

namespace angara {
namespace {

TEST(Progress, ShowsTheShareDoneThePaceAndTheTimeLeft) {
  // 3000 of 12000 cycles in 6 s: 500 cycles/s, 9000 cycles to go: 18 s.
  const auto line = progress_line({6.0, "measure", 3000, 12000, 500.0, 40, 7, 3});
  EXPECT_EQ(line,
            "[0:06] measure cycle 3000 of 12000 (25%), 500 cycles/s, ETA 0:18: 40 delivered, 7 "
            "outstanding, 3 queued at sources");
}

TEST(Progress, PastThePlannedEndSaysWhatItWaitsFor) {
  const auto line = progress_line({75.0, "drain", 12500, 12000, 160.0, 900, 12, 0});
  EXPECT_EQ(line,
            "[1:15] drain cycle 12500, past the planned 12000: waiting for the last packets: 900 "
            "delivered, 12 outstanding, 0 queued at sources");
}

TEST(Progress, WithoutAPlanOnlyTheCycle) {
  EXPECT_EQ(progress_line({2.0, "run", 800, 0, 400.0, 1, 2, 3}),
            "[0:02] run cycle 800: 1 delivered, 2 outstanding, 3 queued at sources");
  // Nothing simulated yet: no pace, no ETA to give.
  EXPECT_NE(progress_line({2.0, "measure", 0, 100, 0.0, 0, 0, 0}).find("ETA ?"), std::string::npos);
}

TEST(Progress, WorkUnitsGiveTheShareAndTheTimeLeftAtTheirPace) {
  // 3 of 10 iterations in 30 s: 70 s to go, whatever the cycles.
  ProgressState s{30.0, "programs", 4859000, 0, 161966.0, 1442227, 0, 0};
  s.work = {"iteration", 3, 10};
  EXPECT_EQ(
      progress_line(s),
      "[0:30] programs iteration 3 of 10 (30%), cycle 4859000, ETA 1:10: 1442227 delivered, 0 "
      "outstanding, 0 queued at sources");
  s.work.done = 0;  // none ended yet: no pace to go by
  EXPECT_NE(progress_line(s).find("iteration 0 of 10 (0%), cycle 4859000, ETA ?"),
            std::string::npos);
}

TEST(Progress, ALongUnitGivesItsShareAndTheTimeLeftAtItsPace) {
  // A quarter of the only iteration in 30 s (its nodes' share of y in): 90 s to go.
  ProgressState s{30.0, "programs", 5542000, 0, 0.0, 7045938, 0, 24379};
  s.work = {"iteration", 0, 1, 0.25};
  EXPECT_EQ(progress_line(s),
            "[0:30] programs iteration 0 of 1 (25%), cycle 5542000, ETA 1:30: 7045938 delivered, "
            "0 outstanding, 24379 queued at sources");
  s.work = {"iteration", 2, 4, 0.5};  // 2.5 of 4 in 30 s: 18 s to go
  EXPECT_NE(progress_line(s).find("iteration 2 of 4 (62%), cycle 5542000, ETA 0:18"),
            std::string::npos);
}

TEST(Progress, DurationsPastAnHourShowHours) {
  EXPECT_EQ(duration_text(59.4), "0:59");
  EXPECT_EQ(duration_text(3599.6), "1:00:00");
  EXPECT_EQ(duration_text(3725), "1:02:05");
  EXPECT_EQ(duration_text(-3), "0:00");
}

}  // namespace
}  // namespace angara
