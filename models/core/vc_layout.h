#pragma once
// How the virtual channels of a router port are numbered, one value that the parameters' checks,
// routing, routers and endpoints all read. The point-to-point VCs come first, numbered
//   set * per_set() + leg * classes + class,
// with 2 classes under the dateline scheme (a packet moves to class 1 past its ring's dateline),
// all of them under hop classes (a packet's h-th hop on class h), else 1, and 2 legs when [faults]
// fails something (a detour's second leg has VCs of its own), else 1; with adaptive routing the VCs
// from first_adaptive on are adaptive, those below the escape VC. Then VCUp and VCDown, the
// collective subnet's. The internal port to the PEGroup carries one channel, VC 0.

#include "models/core/ids.h"

namespace angara {

struct VcLayout {
  int p2p = 2;             // point-to-point VCs per port (router.vcs)
  int classes = 1;         // 1, 2 or p2p: a power of two
  int legs = 1;            // 1 or 2
  int first_adaptive = 2;  // p2p when routing is not adaptive

  int per_set() const { return classes * legs; }  // a power of two
  int per_port() const { return p2p + 2; }        // with VCUp and VCDown
  VcId up() const { return static_cast<VcId>(p2p); }
  VcId down() const { return static_cast<VcId>(p2p + 1); }
  bool collective(int vc) const { return vc >= p2p; }
  // Of point-to-point VC `vc`: its class, its leg, and the first VC of its set.
  int class_of(int vc) const { return vc & (classes - 1); }
  int leg_of(int vc) const { return (vc & (per_set() - 1)) >> (classes - 1); }
  int set_base(int vc) const { return vc & ~(per_set() - 1); }
  VcId vc(int set_base, int leg, int vc_class) const {
    return static_cast<VcId>(set_base + leg * classes + vc_class);
  }
  // The groups of `classes` VCs a stream of packets from the processor takes in turn (each leg
  // of a set counts: a detour starts on the first leg at the router whichever it came in on).
  int injection_sets() const { return p2p / classes; }
  // The VC of the processor's `n`-th point-to-point packet: those groups in turn, class 0.
  VcId injection_vc(std::uint64_t n) const {
    return static_cast<VcId>((n % injection_sets()) * classes);
  }
};

}  // namespace angara
