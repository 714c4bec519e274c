#pragma once
// The node's end of a router's local port in LT. The last router on a packet's path hands the
// packet over through this interface (the call the eject socket would make), so the router
// needs to know nothing of what sits at the node.

#include <systemc>

#include "models/core/packet.h"

namespace angara {

class EjectionEnd {
 public:
  // Takes `packet`, whose tail_at says when it arrived; `delay` in: its head's arrival from now;
  // out: when the packet has left the ejection buffer (its credits then go back).
  virtual void take(Packet& packet, sc_core::sc_time& delay) = 0;
  // Asks the cache for what taking a packet reads (a packet is on its way here).
  virtual void prefetch() const = 0;

 protected:
  ~EjectionEnd() = default;
};

}  // namespace angara
