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
  // 320 bytes, left to malloc's pages; 3.2 MB, more than a huge page.
  for (const std::size_t size : {std::size_t{10}, std::size_t{100000}}) {
    {
      BigArray<Counted> array(size);
      ASSERT_EQ(array.size(), size);
      EXPECT_EQ(Counted::alive, static_cast<int>(size));
      EXPECT_EQ(array.data()[0].value, 7);
      EXPECT_EQ(array.data()[size - 1].value, 7);
      EXPECT_TRUE(array.data()[size - 1].owned.empty());
      array.data()[size / 2].owned.assign(1000, 1);
      EXPECT_EQ(array.data()[size / 2].owned.size(), 1000u);
    }
    EXPECT_EQ(Counted::alive, 0) << size;
  }
}

TEST(BigArray, EmptyHoldsNothing) {
  BigArray<Counted> array(0);
  EXPECT_EQ(array.size(), 0u);
  EXPECT_EQ(array.data(), nullptr);
  EXPECT_EQ(Counted::alive, 0);
}

}  // namespace
}  // namespace angara
