#pragma once
// An array of many objects made at once (the buffer state of a whole fabric, hundreds of MB at
// 32768 nodes), its memory asked of the kernel in one piece: in huge pages and filled in one call
// where the kernel allows (Linux's MADV_HUGEPAGE, MADV_POPULATE_WRITE), since constructing the
// objects page by page, a fault per 4 KB page, was most of the time to build those buffers
// (docs/PERFORMANCE_HISTORY.md). Where the kernel refuses, pages fault in as the objects are made.

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>

namespace angara {

template <typename T>
class BigArray {
 public:
  explicit BigArray(std::size_t size) : m_size(size), m_bytes(size * sizeof(T)) {
    if (m_size == 0) return;
    void* memory =
        mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    madvise(memory, m_bytes, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
    madvise(memory, m_bytes, MADV_POPULATE_WRITE);
#endif
    m_data = static_cast<T*>(memory);
    std::uninitialized_value_construct_n(m_data, m_size);
  }
  ~BigArray() {
    if (m_data == nullptr) return;
    std::destroy_n(m_data, m_size);
    munmap(m_data, m_bytes);
  }
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;

  T* data() const {
    return m_data;
  }
  std::size_t size() const {
    return m_size;
  }

 private:
  std::size_t m_size;
  std::size_t m_bytes;
  T* m_data = nullptr;
};

}  // namespace angara
