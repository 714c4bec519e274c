// HoldCalendar: a buffer's room over time from the intervals its packets hold it.
#include "models/timing/hold_calendar.h"

#include <gtest/gtest.h>

namespace angara {
namespace {

TEST(HoldCalendar, EmptyBufferHasRoomAtOnce) {
  HoldCalendar h;
  EXPECT_EQ(h.earliest({7, 17, 17}, 64, 0), 7u);
}

TEST(HoldCalendar, FullBufferHasRoomWhenTheFirstHoldEnds) {
  HoldCalendar h;  // 34 flits: two 17-flit packets fill it
  h.open(0, 17);
  h.close(100);
  h.open(10, 17);
  h.close(120);
  EXPECT_EQ(h.earliest({20, 17, 17}, 34, 0), 100u);
  EXPECT_EQ(h.earliest({20, 34, 34}, 34, 0), 120u);  // all of it: when both have left
  EXPECT_EQ(h.earliest({110, 17, 17}, 34, 0), 110u);
}

TEST(HoldCalendar, AHoldStartingLaterCountsOnlyWithinTheClaimsSpan) {
  // A hold booked earlier in the call order but later in time: a packet that is sure to have
  // left by then may go now; one that would still be there must not overfill the buffer.
  HoldCalendar h;
  h.open(500, 34);
  h.close(600);
  EXPECT_EQ(h.earliest({10, 17, 17, 100}, 34, 0), 10u);    // gone by 110
  EXPECT_EQ(h.earliest({450, 17, 17, 100}, 34, 0), 600u);  // still there at 500
  EXPECT_EQ(h.earliest({550, 17, 17}, 34, 0), 600u);
}

TEST(HoldCalendar, TheBubbleIsNeededAtTheStartOnly) {
  // need 34 (the packet and a bubble) at its start, then room for its own 17 flits.
  HoldCalendar h;
  h.open(200, 17);
  h.close(300);
  EXPECT_EQ(h.earliest({100, 34, 17, 150}, 34, 0), 100u);
  h.open(220, 17);
  h.close(320);
  // 51 flits at 220 otherwise; at 300 the one left still takes the bubble.
  EXPECT_EQ(h.earliest({100, 34, 17, 150}, 34, 0), 320u);
}

TEST(HoldCalendar, HoldsThatEndedBeforeTheFloorAreForgotten) {
  HoldCalendar h;
  h.open(0, 17);
  h.close(50);
  h.open(0, 17);
  h.close(80);
  EXPECT_EQ(h.earliest({60, 34, 34}, 34, 60), 80u);
  EXPECT_EQ(h.holds(), 1u);
}

TEST(HoldCalendar, OnlyAnOpenHoldInTheWayMeansNever) {
  HoldCalendar h;
  h.open(0, 34);
  EXPECT_EQ(h.earliest({5, 1, 1}, 34, 0), kNever);
  h.close(40);
  EXPECT_EQ(h.earliest({5, 1, 1}, 34, 0), 40u);
  EXPECT_THROW(h.close(50), std::logic_error);  // nothing open any more
}

}  // namespace
}  // namespace angara
