#pragma once
// The protocol of the fabric sockets (router-router, endpoint-router): our own payload type
// instead of tlm_generic_payload (TLM-2.0's way for a protocol that is not memory-mapped), and
// phases with a fixed meaning:
//   BEGIN_REQ (forward; in LT b_transport): `packet`'s head will be wholly in the receiver's
//     buffer after the annotated delay (= packet.head_at); the receiver must have room, the
//     sender checked credits.
//   END_REQ (backward): a packet has left the receiver's buffer: `credit` says which of the
//     receiver's VCs and how many flits, usable by the sender after the annotated delay.
// There is no response phase: packets are posted.

#include <systemc>
#include <tlm>

#include "models/core/packet.h"
#include "models/timing/fabric_clock.h"

namespace angara {

// Buffer space a receiver gives back to its sender: `flits` of VC `vc` at the receiver's input.
struct Credit {
  VcId vc = 0;
  int flits = 0;
};

// One transaction: a packet forward, or credits backward.
struct FabricPayload {
  Packet* packet = nullptr;
  Credit credit;
};

struct FabricProtocol {
  using tlm_payload_type = FabricPayload;
  using tlm_phase_type = tlm::tlm_phase;
};

}  // namespace angara
