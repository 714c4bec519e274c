#pragma once
// A FIFO on one growable circular buffer. Routers hold dozens of small queues each; an empty
// std::deque allocates about 600 bytes, this allocates nothing until the first push.

#include <cstddef>
#include <utility>
#include <vector>

namespace angara {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return m_size == 0; }
  std::size_t size() const { return m_size; }
  T& front() { return m_items[m_head]; }
  const T& front() const { return m_items[m_head]; }
  // The i-th element from the front.
  T& operator[](std::size_t i) { return m_items[(m_head + i) % m_items.size()]; }
  const T& operator[](std::size_t i) const { return m_items[(m_head + i) % m_items.size()]; }

  void push_back(T item) {
    if (m_size == m_items.size()) grow();
    m_items[(m_head + m_size) % m_items.size()] = std::move(item);
    ++m_size;
  }
  // Appends a value-initialised element and returns it.
  T& emplace_back() {
    push_back(T{});
    return m_items[(m_head + m_size - 1) % m_items.size()];
  }
  void pop_front() {
    m_head = (m_head + 1) % m_items.size();
    --m_size;
  }

 private:
  void grow() {
    std::vector<T> bigger;
    bigger.reserve(m_items.empty() ? 4 : 2 * m_items.size());
    for (std::size_t i = 0; i < m_size; ++i) bigger.push_back(std::move((*this)[i]));
    bigger.resize(bigger.capacity());
    m_items = std::move(bigger);
    m_head = 0;
  }

  std::vector<T> m_items;
  std::size_t m_head = 0;
  std::size_t m_size = 0;
};

}  // namespace angara
