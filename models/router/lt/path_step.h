#pragma once
// What an LT hop has left to do once the path beyond it is booked. A packet's path runs as a
// loop (LtSwitch::hop()), not as a call per hop, which on a ring of 65536 nodes (paths of 32768
// hops) would overflow the stack: each hop leaves these steps on the fabric's chain, and they
// run, the last hop's first, once the path beyond has ended, in the order a call per hop would.

#include <cstdint>

#include "models/router/lt/input_order.h"
#include "models/router/lt/reservations.h"
#include "models/router/router_core.h"

namespace angara {

class LtSwitch;

struct PathStep {
  enum class Kind : std::uint8_t {
    Copy,     // a copy's issue finishes (a worm's tail): it leaves what `free` and its tail say;
              // first, with `handed`, the hold behind its output ends when it has left the next
              // buffer; then, with `order`, its input VC's order moves on
    Arrived,  // at `sw`'s input: the input VC's `order` moves on; the PEGroup's timer is set
    Copies,   // the packet's other copies are booked and handed on (the fabric's last Copies)
  };
  Kind kind = Kind::Copy;
  bool handed = false;
  bool to_pegroup = false;  // Arrived: the PEGroup took a copy
  PortId port = 0;          // Copy, handed: the output and its VC
  VcId vc = 0;
  int worm_hop = -1;  // Copy: RouterCore::IssuedCopy's
  std::uint32_t worm_id = 0;
  LtSwitch* sw = nullptr;
  InputOrder* order = nullptr;  // with buffers
  Cycle at = 0;                 // the packet's arrival (for `order`)
  Cycle free = 0;               // Copy: what the copies before it left
  Cycle tail_out = 0;           // Copy: its tail, unless a worm's (RouterCore::IssuedCopy)
};

// A packet whose copies are booked one after another: those still to book, after the one whose
// path is being booked.
struct Copies {
  PortId port = 0;  // the input
  Packet* packet = nullptr;
  RouterCore::Route route;     // the outputs left
  Cycle input_free = 0;        // when the crossbar input is free for the next copy
  std::uint32_t all_outs = 0;  // the outputs it had at first
  bool choosing = false;       // next_copy() chooses the next (`starts`), else port order
  LtReservations::CopyStarts starts;
};

}  // namespace angara
