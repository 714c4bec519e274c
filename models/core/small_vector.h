#pragma once
// A vector whose first N elements live inside it: the few entries a per-VC calendar holds at a
// time are then read with the calendar's own cache line, where a heap buffer would be one more
// miss per hop on a large machine. More spill to the heap, and come back when they are gone.

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace angara {

template <typename T, std::size_t N>
class SmallVector {
 public:
  // The entries are in m_spill exactly while there are more than N (insert() and shrink() move
  // them), so the size alone says where they are.
  std::span<T> items() { return {m_size > N ? m_spill.data() : m_inline.data(), m_size}; }
  std::span<const T> items() const {
    return {m_size > N ? m_spill.data() : m_inline.data(), m_size};
  }
  std::size_t size() const { return m_size; }

  void push_back(const T& value) {
    if (m_size < N) {
      m_inline[m_size++] = value;
    } else {
      insert(m_size, value);
    }
  }
  void pop_back() { shrink(m_size - 1); }
  void insert(std::size_t at, const T& value) {
    if (m_size < N) {
      // A loop, not std::copy_backward: a few entries, mostly none, where memmove is a call.
      for (std::size_t i = m_size; i > at; --i) m_inline[i] = m_inline[i - 1];
      m_inline[at] = value;
    } else {
      if (m_size == N) m_spill.assign(m_inline.begin(), m_inline.end());
      m_spill.insert(m_spill.begin() + static_cast<std::ptrdiff_t>(at), value);
    }
    ++m_size;
  }

  // Removes entries [first, last).
  void erase(std::size_t first, std::size_t last) {
    if (first == last) return;
    const std::span<T> all = items();
    std::copy(all.begin() + static_cast<std::ptrdiff_t>(last), all.end(),
              all.begin() + static_cast<std::ptrdiff_t>(first));
    shrink(m_size - static_cast<std::uint32_t>(last - first));
  }

  template <typename Pred>
  void erase_if(Pred pred) {
    const std::span<T> all = items();
    shrink(static_cast<std::uint32_t>(std::remove_if(all.begin(), all.end(), pred) - all.begin()));
  }

 private:
  void shrink(std::uint32_t kept) {
    if (kept == m_size) return;
    const bool spilled = m_size > N;
    m_size = kept;
    if (!spilled) return;
    if (m_size <= N) {
      std::copy_n(m_spill.begin(), m_size, m_inline.begin());
      m_spill.clear();
    } else {
      m_spill.resize(m_size);
    }
  }

  // The size and the first entries first, read together; the heap's vector, seldom used, last.
  std::uint32_t m_size = 0;
  std::array<T, N> m_inline{};
  std::vector<T> m_spill;  // all entries while more than N are held
};

}  // namespace angara
