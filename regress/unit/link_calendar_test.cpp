#include "models/timing/link_calendar.h"

#include <gtest/gtest.h>

namespace angara {
namespace {

TEST(LinkCalendar, FreeChannelStartsAtReadyTime) {
  LinkCalendar c;
  EXPECT_EQ(c.book(100, 15, 0), 100u);
  EXPECT_EQ(c.book(200, 15, 0), 200u);
}

TEST(LinkCalendar, BusyChannelQueuesBehindTheBooking) {
  LinkCalendar c;
  EXPECT_EQ(c.book(100, 15, 0), 100u);
  EXPECT_EQ(c.book(105, 15, 0), 115u);
  EXPECT_EQ(c.book(100, 15, 0), 130u);
}

// A packet booked later but ready earlier takes the gap before an earlier booking when it fits,
// which busy-until could not do.
TEST(LinkCalendar, OutOfOrderBookingFillsAGapThatFits) {
  LinkCalendar c;
  EXPECT_EQ(c.book(500, 15, 0), 500u);
  EXPECT_EQ(c.book(100, 15, 0), 100u);   // before the first booking
  EXPECT_EQ(c.book(490, 15, 0), 515u);   // 490..505 would overlap 500..515
  EXPECT_EQ(c.book(115, 10, 0), 115u);   // exactly between 100..115 and 500..515
  EXPECT_EQ(c.book(110, 400, 0), 530u);  // no gap of 400 before the last booking
}

// fit() finds what book() would take and books nothing; take() books it.
TEST(LinkCalendar, FitThenTakeIsBook) {
  LinkCalendar c;
  c.book(100, 15, 0);
  EXPECT_EQ(c.fit(105, 15, 0), 115u);
  EXPECT_EQ(c.fit(105, 15, 0), 115u);
  EXPECT_EQ(c.bookings(), 1u);
  c.take(115, 15);
  EXPECT_EQ(c.bookings(), 1u);  // touching: one interval 100..130
  EXPECT_EQ(c.fit(105, 15, 0), 130u);
}

TEST(LinkCalendar, ForgetsBookingsThatEndedBeforeTheFloor) {
  LinkCalendar c;
  for (Cycle t = 0; t < 1000; t += 20) c.book(t, 15, 0);
  EXPECT_EQ(c.bookings(), 50u);
  EXPECT_EQ(c.book(2000, 15, 990), 2000u);
  EXPECT_EQ(c.bookings(), 2u);  // 980..995 still ends after the floor, plus the new one
}

// A calendar holds a few bookings inside itself and more on the heap; it finds the same gaps
// either way, and across the change in both directions.
TEST(LinkCalendar, GapsAreFoundWhetherHeldInsideOrSpilled) {
  LinkCalendar c;
  for (Cycle t = 0; t < 200; t += 20) c.book(t, 10, 0);  // 0..10, 20..30, ..., 180..190
  EXPECT_EQ(c.bookings(), 10u);
  EXPECT_EQ(c.book(5, 10, 0), 10u);  // exactly 10..20: joins 0..10 and 20..30
  EXPECT_EQ(c.bookings(), 9u);
  EXPECT_EQ(c.book(150, 5, 150), 150u);  // all but 160..170 and 180..190 forgotten
  EXPECT_EQ(c.bookings(), 3u);
  EXPECT_EQ(c.book(150, 10, 150), 170u);  // the gap 170..180: joins both sides
  EXPECT_EQ(c.bookings(), 2u);            // 150..155 and 160..190
  for (Cycle t = 200; t < 400; t += 20) c.book(t, 10, 150);
  EXPECT_EQ(c.bookings(), 12u);
  EXPECT_EQ(c.book(150, 15, 150), 390u);  // every gap is 10 wide until the last booking ends
  EXPECT_EQ(c.book(150, 10, 150), 190u);  // 190..200 fits: joins 160..190 and 200..210
  EXPECT_EQ(c.bookings(), 11u);
}

// Back-to-back bookings are held as one interval (a saturated link stays cheap to search), and a
// booking that fills a gap exactly joins its neighbours; the free gaps are unchanged.
TEST(LinkCalendar, TouchingBookingsJoin) {
  LinkCalendar c;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(c.book(0, 15, 0), Cycle(15 * i));
  EXPECT_EQ(c.bookings(), 1u);
  EXPECT_EQ(c.book(1600, 10, 0), 1600u);
  EXPECT_EQ(c.bookings(), 2u);
  EXPECT_EQ(c.book(1400, 100, 0), 1500u);  // exactly the gap 1500..1600
  EXPECT_EQ(c.bookings(), 1u);
  EXPECT_EQ(c.book(0, 1, 0), 1610u);
}

// A spread booking fills the gaps in order and ends where they add up to its length; what it
// fills is booked (a later booking finds no room there).
TEST(LinkCalendar, SpreadBookingFillsTheGapsInOrder) {
  LinkCalendar c;
  c.book(100, 10, 0);                         // 100..110
  c.book(130, 10, 0);                         // 130..140
  EXPECT_EQ(c.book_spread(90, 50, 0), 160u);  // 90..100, 110..130 and 140..160
  EXPECT_EQ(c.bookings(), 1u);                // 90..160 all booked now
  EXPECT_EQ(c.book(95, 5, 0), 160u);
  EXPECT_EQ(c.book(0, 5, 0), 0u);
  EXPECT_EQ(c.book_spread(200, 7, 0), 207u);  // no booking in the way: in one piece
  EXPECT_EQ(c.book_spread(300, 0, 0), 300u);  // nothing to book
}

}  // namespace
}  // namespace angara
