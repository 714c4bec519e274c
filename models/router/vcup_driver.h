#pragma once
// An RTL VCUp that drives an AT router (rtl.vcup = "drive", docs/RTL.md): the oldest packet of an
// input port's VCUp asks for its copies in the cycles the block asks, and its space is free (its
// credits go upstream) when the block frees it. The router still arbitrates the crossbar and the
// outputs, and routes everything else itself.

#include <cstdint>
#include <functional>

#include "models/core/packet.h"

namespace angara {

class VcUpDriver {
 public:
  virtual ~VcUpDriver() = default;

  // What the driver may ask of the router: to allocate in a cycle (a request it will make then),
  // and to return `flits` of input `port`'s VCUp to the upstream, usable there from cycle `at`.
  struct Router {
    std::function<void(Cycle)> wake;
    std::function<void(PortId port, int flits, Cycle at)> free;
  };
  virtual void attach(Router router) = 0;

  // The outputs (a bit per port) the oldest packet in input `port`'s VCUp, `packet`, asks for in
  // cycle `now`; `outs`: those the router's tables still have for it. 0: none this cycle.
  virtual std::uint32_t request(PortId port, const Packet& packet, std::uint32_t outs,
                                Cycle now) = 0;
};

}  // namespace angara
