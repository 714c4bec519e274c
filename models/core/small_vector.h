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
  std::span<T> items() { return {m_spill.empty() ? m_inline.data() : m_spill.data(), m_size}; }
  std::span<const T> items() const {
    return {m_spill.empty() ? m_inline.data() : m_spill.data(), m_size};
  }
  std::size_t size() const { return m_size; }

  void push_back(const T& value) {
    if (m_spill.empty() && m_size < N) {
      m_inline[m_size++] = value;
      return;
    }
    if (m_spill.empty()) m_spill.assign(m_inline.begin(), m_inline.end());
    m_spill.push_back(value);
    ++m_size;
  }

  template <typename Pred>
  void erase_if(Pred pred) {
    const std::span<T> all = items();
    const auto kept =
        static_cast<std::uint32_t>(std::remove_if(all.begin(), all.end(), pred) - all.begin());
    if (kept == m_size) return;
    m_size = kept;
    if (m_spill.empty()) return;
    if (m_size <= N) {
      std::copy_n(m_spill.begin(), m_size, m_inline.begin());
      m_spill.clear();
    } else {
      m_spill.resize(m_size);
    }
  }

 private:
  std::vector<T> m_spill;  // all entries while more than N are held
  std::uint32_t m_size = 0;
  std::array<T, N> m_inline{};
};

}  // namespace angara
