// CreditCounter without SystemC: credits spent at once, returns usable only from their cycle, the
// earliest cycle a need is met, and the wake-up a waiting sender gets from the next return.

#include "models/fabric/credit_counter.h"

#include <gtest/gtest.h>

namespace angara {
namespace {

TEST(CreditCounter, StartsWithTheBufferAndConsumeSpendsAtOnce) {
  CreditCounter c(64);
  EXPECT_EQ(c.at(0), 64);
  c.consume(17);
  c.consume(5);
  EXPECT_EQ(c.available(), 42);
  EXPECT_EQ(c.at(1000), 42);  // nothing comes back by itself
}

TEST(CreditCounter, ReturnedCreditsAreUsableOnlyFromTheirCycle) {
  CreditCounter c(17);
  c.consume(17);
  c.add(100, 10);
  c.add(120, 7);
  EXPECT_EQ(c.at(99), 0);
  EXPECT_EQ(c.available(), 0);
  EXPECT_EQ(c.at(100), 10);
  EXPECT_EQ(c.at(119), 10);
  EXPECT_EQ(c.at(500), 17);  // back to the whole buffer, no more
}

TEST(CreditCounter, WhenIsTheFirstCycleFromWhichTheNeedIsMet) {
  CreditCounter c(4);
  c.add(10, 5);
  c.add(20, 5);
  c.add(30, 7);
  EXPECT_EQ(c.when({3, 4}), 3u);     // already there
  EXPECT_EQ(c.when({3, 9}), 10u);    // with the first return
  EXPECT_EQ(c.when({3, 14}), 20u);   // with the second
  EXPECT_EQ(c.when({25, 14}), 25u);  // not before `from`
  EXPECT_EQ(c.when({0, 21}), 30u);
  EXPECT_EQ(c.when({0, 22}), kNever);  // not with what is known now
  EXPECT_EQ(c.available(), 4);         // asking absorbs nothing
}

TEST(CreditCounter, OnlyAWaitingSenderIsWokenAndOnlyOnce) {
  CreditCounter c(0);
  EXPECT_FALSE(c.add(10, 5));  // nobody waits
  c.mark_waited_on();
  EXPECT_TRUE(c.add(20, 5));   // the sender that waited is woken by the next return
  EXPECT_FALSE(c.add(30, 5));  // and by that one only
}

}  // namespace
}  // namespace angara
