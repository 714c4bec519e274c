#pragma once
// Recycles packet objects so the hot path allocates nothing once the network has warmed up.

#include <memory>
#include <vector>

#include "models/core/packet.h"

namespace angara {

class PacketPool {
 public:
  Packet* acquire() {
    if (m_free.empty()) {
      m_all.push_back(std::make_unique<Packet>());
      return m_all.back().get();
    }
    Packet* p = m_free.back();
    m_free.pop_back();
    *p = Packet{};
    return p;
  }
  void release(Packet* p) { m_free.push_back(p); }
  std::size_t allocated() const { return m_all.size(); }

 private:
  std::vector<std::unique_ptr<Packet>> m_all;
  std::vector<Packet*> m_free;
};

}  // namespace angara
