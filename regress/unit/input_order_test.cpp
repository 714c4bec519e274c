// InputOrder: head-of-line blocking in one input VC when packets are booked out of time order.
#include "models/router/lt/input_order.h"

#include <gtest/gtest.h>

namespace angara {
namespace {

TEST(InputOrder, APacketStartsAfterEveryOneThatArrivedBeforeItHasLeft) {
  InputOrder order;
  EXPECT_EQ(order.earliest(100, 0), 0u);  // nothing ahead
  order.left(100, 150);
  order.left(120, 140);  // booked later, left earlier: the one at 100 still holds the head
  EXPECT_EQ(order.earliest(130, 0), 150u);
  EXPECT_EQ(order.earliest(100, 0), 150u);  // the same arrival counts as ahead
  EXPECT_EQ(order.earliest(90, 0), 0u);     // arrived before both: booked late, not blocked
}

TEST(InputOrder, AnEarlierArrivalBookedLaterBlocksThoseAfterIt) {
  InputOrder order;
  order.left(200, 260);
  order.left(150, 300);  // arrived first, left last
  EXPECT_EQ(order.earliest(170, 0), 300u);
  EXPECT_EQ(order.earliest(210, 0), 300u);
  order.left(250, 400);
  EXPECT_EQ(order.earliest(220, 0), 300u);
  EXPECT_EQ(order.earliest(260, 0), 400u);
}

TEST(InputOrder, PacketsThatLeftBeforeTheFloorAreForgotten) {
  InputOrder order;
  order.left(10, 50);
  order.left(20, 80);
  EXPECT_EQ(order.earliest(30, 60), 80u);
  EXPECT_EQ(order.earliest(30, 90), 0u);
}

}  // namespace
}  // namespace angara
