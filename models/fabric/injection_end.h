#pragma once
// The router's end of a node's local port in LT. The endpoint hands its packet over through this
// interface (the call its inject socket would make, without the socket's look-ups, each one more
// cache miss per packet on a large machine), as the last router hands it to the EjectionEnd.

#include "models/core/ids.h"
#include "models/core/packet.h"

namespace angara {

class InjectionEnd {
 public:
  // Takes `packet` at local port `port`, its head there at packet.head_at; returns the cycle it
  // has left the injection buffer (its credits go back then).
  virtual Cycle enter(PortId port, Packet& packet) = 0;

 protected:
  ~InjectionEnd() = default;
};

}  // namespace angara
