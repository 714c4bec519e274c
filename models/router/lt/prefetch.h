#pragma once
// Asks the cache for every line `object` spans (LT's calendars span two to five), so that the
// state a packet's path reads is fetched all at once instead of one miss after another.

#include <cstdint>

namespace angara {

template <typename T>
void prefetch_object(const T* object) {
  constexpr std::uintptr_t kLine = 64;
  const auto first = reinterpret_cast<std::uintptr_t>(object) & ~(kLine - 1);
  const auto last = reinterpret_cast<std::uintptr_t>(object) + sizeof(T) - 1;
  for (std::uintptr_t line = first; line <= last; line += kLine) {
    __builtin_prefetch(reinterpret_cast<const void*>(line));
  }
}

}  // namespace angara
