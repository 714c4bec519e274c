#pragma once
// What a router in AT shows of its inputs to an observer beside it (an RTL block's transactor,
// docs/RTL.md): every packet announced to it, before routing may change its header, and every
// grant that issues a copy. The router calls it in the cycle it acts; it changes nothing.

#include "models/core/packet.h"
#include "models/router/issue.h"

namespace angara {

class RouterProbe {
 public:
  virtual ~RouterProbe() = default;
  // `packet` is announced on input `port`: its head_at/tail_at say when it is in the buffer.
  virtual void arrival(PortId port, const Packet& packet) = 0;
  // A copy leaves an input in this cycle (grant.start), through the crossbar to grant.out_port.
  virtual void grant(const Grant& grant) = 0;
};

}  // namespace angara
