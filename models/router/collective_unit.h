#pragma once
// The seam through which the collective subnet (collectives/) plugs into a router: the router
// owns the ports, buffers, credits and crossbar; the unit decides where collective packets go
// (VCUp/VCDown routing from the tree tables) and runs the PEGroup. The router core and both
// timing shells use it the same way.

#include <cstdint>
#include <functional>
#include <vector>

#include "models/core/packet.h"

namespace angara {

// How a packet the PEGroup sends leaves the router.
enum class Toward : std::uint8_t {
  Up,     // to the parent on VCUp (to_root)
  Down,   // a copy to every child on VCDown
  Pe,     // to the node's processor (ejection)
  Point,  // point-to-point to header.dst, routed like any packet from this router
};

struct CollectiveSend {
  Packet* packet = nullptr;
  Toward toward = Toward::Down;
  Cycle ready = 0;  // at the crossbar from this cycle
};

// Where a collective packet goes from the VC it arrived in: copies to these directions, to the
// processor and/or into the PEGroup.
struct CollectiveRoute {
  std::uint8_t dirs = 0;  // bit Direction::index()
  bool pe = false;
  bool pegroup = false;
};

class CollectiveUnit {
 public:
  virtual ~CollectiveUnit() = default;
  // A collective packet wholly arrived on `port` (a direction, or `from_pe` from the processor):
  // where it goes. May turn a broadcast request reaching the root into a broadcast.
  virtual CollectiveRoute arrival(Packet& packet, bool from_pe) = 0;
  // The directions of a PEGroup send (Up: the parent's, Down: the children's).
  virtual std::uint8_t directions(const Packet& packet, Toward toward) const = 0;
  // A packet wholly in the PEGroup at `at`; appends what the PEGroup sends.
  virtual void accept(Packet* packet, bool from_pe, Cycle at, std::vector<CollectiveSend>& out) = 0;
  // The PEGroup's next timer (a result handed off, a report to the processor), or kNever; and
  // its expiry.
  virtual Cycle next_timer() const = 0;
  virtual void on_timer(Cycle now, std::vector<CollectiveSend>& out) = 0;
  // How the unit asks the router (AT) to act at a cycle next_timer() did not show when the
  // router last asked: an RTL block that drives sets its own timers.
  virtual void set_wake(std::function<void(Cycle)> wake) = 0;
};

}  // namespace angara
