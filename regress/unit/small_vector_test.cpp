// SmallVector: entries inside it up to N, on the heap beyond, back inside when few are left.
#include "models/core/small_vector.h"

#include <gtest/gtest.h>

#include <vector>

namespace angara {
namespace {

std::vector<int> contents(const SmallVector<int, 2>& v) {
  return {v.items().begin(), v.items().end()};
}

TEST(SmallVector, KeepsOrderInsideSpilledAndBack) {
  SmallVector<int, 2> v;
  v.push_back(1);
  v.push_back(2);
  EXPECT_EQ(contents(v), (std::vector<int>{1, 2}));
  v.push_back(3);  // spills
  v.push_back(4);
  EXPECT_EQ(contents(v), (std::vector<int>{1, 2, 3, 4}));
  v.erase_if([](int x) { return x % 2 == 1; });
  EXPECT_EQ(contents(v), (std::vector<int>{2, 4}));  // back inside
  v.push_back(5);
  EXPECT_EQ(contents(v), (std::vector<int>{2, 4, 5}));
  v.erase_if([](int) { return true; });
  EXPECT_EQ(v.size(), 0u);
  v.push_back(6);
  EXPECT_EQ(contents(v), (std::vector<int>{6}));
}

TEST(SmallVector, InsertsAndErasesInPlaceInsideAndSpilled) {
  SmallVector<int, 2> v;
  v.insert(0, 3);
  v.insert(0, 1);
  v.insert(1, 2);  // spills
  EXPECT_EQ(contents(v), (std::vector<int>{1, 2, 3}));
  v.erase(0, 2);  // back inside
  EXPECT_EQ(contents(v), (std::vector<int>{3}));
  v.insert(1, 4);
  EXPECT_EQ(contents(v), (std::vector<int>{3, 4}));
}

}  // namespace
}  // namespace angara
