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

TEST(HoldCalendar, ATrainsLanesFreeOneAfterAnotherForTheNextTrain) {
  // 68 flits: a train of 17-flit packets has 4 in flight, one lane each, 15 cycles apart.
  HoldCalendar h;
  h.open(0, 17, 4, 15);
  h.close(400);  // its last packet has left by 400, the first lane's 3 x 15 cycles before
  // Every lane of the next train starts as the one before gives up its own: 355, 370, 385, 400.
  EXPECT_EQ(h.earliest({0, 17, 17, 100, 4, 15}, 68, 0), 355u);
  // A packet with the bubble needs two lanes free.
  EXPECT_EQ(h.earliest({50, 34, 17}, 68, 0), 370u);
  // The lanes are holds of their own: a packet fits beside them where the buffer is larger.
  EXPECT_EQ(h.earliest({50, 17, 17, 10}, 68, 0), 355u);
  EXPECT_EQ(h.earliest({50, 17, 17, 10}, 85, 0), 50u);
}

TEST(HoldCalendar, ATrainStartsWhereEveryLaneFitsBesideTheOnesBefore) {
  HoldCalendar h;  // a packet holds 30 to 100
  h.open(30, 17);
  h.close(100);
  // Three lanes 15 cycles apart in 51 flits: from 0 the third (at 30) would make four packets.
  // From 70 the first two share the buffer with that packet and the third starts as it leaves.
  EXPECT_EQ(h.earliest({0, 17, 17, 50, 3, 15}, 51, 0), 70u);
  EXPECT_EQ(h.earliest({0, 17, 17, 50, 2, 15}, 51, 0), 0u);  // two lanes fit beside it at once
}

TEST(HoldCalendar, ALongHoldBeforeManyShortOnesStillCounts) {
  // The search starts at the first hold that reaches past the claim: here the long one first in
  // the list, though many short ones after it ended long before the claim.
  HoldCalendar h;
  h.open(0, 30);
  h.close(1000);
  for (Cycle t = 10; t < 400; t += 20) {
    h.open(t, 17);
    h.close(t + 15);
  }
  EXPECT_EQ(h.earliest({500, 40, 17}, 64, 0), 1000u);  // 34 flits free beside it: not 40
  EXPECT_EQ(h.earliest({500, 34, 17}, 64, 0), 500u);
}

TEST(HoldCalendar, AHoldOpenedBeforeOthersInTimeCountsUntilItCloses) {
  // Opened out of time order (before holds booked earlier), it stays in the way while open,
  // and from its close on only as long as it lasts.
  HoldCalendar h;
  h.open(10, 17);
  h.close(20);
  h.open(100, 17);
  h.close(150);
  h.open(200, 17);
  h.close(250);
  h.open(50, 34);  // between the first and the rest, still open
  EXPECT_EQ(h.earliest({300, 17, 17}, 34, 0), kNever);
  h.close(320);
  EXPECT_EQ(h.earliest({300, 17, 17}, 34, 0), 320u);
  EXPECT_EQ(h.earliest({330, 34, 34}, 34, 0), 330u);
}

}  // namespace
}  // namespace angara
