#pragma once
// ByNode: a map by node with its last entry at hand. An adapter's traffic comes in long runs to
// one destination or from one sender, so most look-ups are that entry (unordered_map entries
// never move).

#include <unordered_map>

#include "models/core/ids.h"

namespace angara {

template <typename V>
class ByNode {
 public:
  V& operator[](NodeId node) {
    if (m_last == nullptr || node != m_last_node) {
      m_last = &m_map[node];
      m_last_node = node;
    }
    return *m_last;
  }

 private:
  std::unordered_map<NodeId, V> m_map;
  NodeId m_last_node = 0;
  V* m_last = nullptr;
};

}  // namespace angara
