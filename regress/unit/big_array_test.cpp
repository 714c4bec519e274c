// BigArray: every object made and destroyed once, an empty array fine.
#include "models/core/big_array.h"

#include <gtest/gtest.h>

#include <vector>

namespace angara {
namespace {

struct Counted {
  static inline int alive = 0;
  Counted() { ++alive; }
  ~Counted() { --alive; }
  int value = 7;
  std::vector<int> owned;  // not trivially constructible, as the buffers' calendars are not
};

TEST(BigArray, MakesAndDestroysEveryObject) {
  {
    BigArray<Counted> array(100000);  // 3.2 MB: more than one huge page
    ASSERT_EQ(array.size(), 100000u);
    EXPECT_EQ(Counted::alive, 100000);
    EXPECT_EQ(array.data()[0].value, 7);
    EXPECT_EQ(array.data()[99999].value, 7);
    EXPECT_TRUE(array.data()[99999].owned.empty());
    array.data()[123].owned.assign(1000, 1);
    EXPECT_EQ(array.data()[123].owned.size(), 1000u);
  }
  EXPECT_EQ(Counted::alive, 0);
}

TEST(BigArray, EmptyHoldsNothing) {
  BigArray<Counted> array(0);
  EXPECT_EQ(array.size(), 0u);
  EXPECT_EQ(array.data(), nullptr);
  EXPECT_EQ(Counted::alive, 0);
}

}  // namespace
}  // namespace angara
