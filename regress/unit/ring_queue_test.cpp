#include "models/core/ring_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <utility>

namespace angara {
namespace {

// Interleaved pushes and pops across several growths behave exactly like std::deque.
TEST(RingQueue, BehavesLikeADequeAcrossWrapAndGrowth) {
  RingQueue<int> q;
  std::deque<int> reference;
  EXPECT_TRUE(q.empty());
  int next = 0;
  for (int round = 0; round < 200; ++round) {
    const int pushes = (round * 7) % 5 + 1, pops = (round * 3) % 4;
    for (int i = 0; i < pushes; ++i) {
      q.push_back(next);
      reference.push_back(next++);
    }
    for (int i = 0; i < pops && !reference.empty(); ++i) {
      ASSERT_EQ(q.front(), reference.front());
      q.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(q.size(), reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(q[i], reference[i]);
  }
  while (!reference.empty()) {
    ASSERT_EQ(q.front(), reference.front());
    q.pop_front();
    reference.pop_front();
  }
  EXPECT_TRUE(q.empty());
}

// emplace_back appends a value-initialised element in place, also when the buffer grows.
TEST(RingQueue, EmplaceBackReturnsTheNewLastElement) {
  RingQueue<std::pair<int, int>> q;
  for (int i = 0; i < 10; ++i) {
    auto& added = q.emplace_back();
    EXPECT_EQ(added, std::make_pair(0, 0));
    added.first = i;
    if (i % 3 == 0) q.pop_front();
  }
  ASSERT_EQ(q.size(), 6u);
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_EQ(q[i].first, static_cast<int>(i) + 4);
}

}  // namespace
}  // namespace angara
