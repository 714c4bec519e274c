#pragma once
// An array of many objects made at once (the buffer state of a whole fabric, hundreds of MB at
// 32768 nodes) in one piece of memory, in huge pages and faulted in by one call where the kernel
// allows (Linux's MADV_HUGEPAGE, MADV_POPULATE_WRITE), since constructing the objects page by
// page, a fault per 4 KB page, costs most of the time to build those buffers. Where the kernel
// refuses, pages fault in as the objects are made.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace angara {

template <typename T>
class BigArray {
 public:
  explicit BigArray(std::size_t size) : m_size(size) {
    if (m_size == 0) return;
    // From malloc, not mmap, so that the leak checker still sees what the objects own. Less than
    // a huge page is left to malloc's own pages.
    const bool huge = m_size * sizeof(T) >= kHugePage;
    const std::size_t align = huge ? kHugePage : kCacheLine;
    const std::size_t bytes = (m_size * sizeof(T) + align - 1) / align * align;
    void* memory = std::aligned_alloc(align, bytes);
    if (memory == nullptr) throw std::bad_alloc();
    if (huge) {
      madvise(memory, bytes, MADV_HUGEPAGE);
      madvise(memory, bytes, MADV_POPULATE_WRITE);
    }
    m_data = static_cast<T*>(memory);
    std::uninitialized_value_construct_n(m_data, m_size);
  }
  ~BigArray() {
    if (m_data == nullptr) return;
    std::destroy_n(m_data, m_size);
    std::free(m_data);
  }
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;

  T* data() const { return m_data; }
  std::size_t size() const { return m_size; }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kCacheLine = 64;
  std::size_t m_size;
  T* m_data = nullptr;
};

}  // namespace angara
