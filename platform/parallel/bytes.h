#pragma once
// What ranks send each other: plain values copied byte for byte (the ranks of a run are the same
// program on the same kind of machine), in the order they were put.

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace angara {

using Bytes = std::vector<char>;

template <typename T>
void put(Bytes& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

template <typename T>
T take(const Bytes& in, std::size_t& at) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return value;
}

// The rest of `in` from `at`, as text.
inline std::string take_rest(const Bytes& in, std::size_t at) {
  return std::string(in.begin() + static_cast<std::ptrdiff_t>(at), in.end());
}

}  // namespace angara
