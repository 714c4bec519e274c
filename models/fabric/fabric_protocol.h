#pragma once
// The protocol of the fabric sockets (router-router, endpoint-router): one TLM transaction per
// packet, our own payload type instead of tlm_generic_payload (TLM-2.0's way for a protocol that
// is not memory-mapped), and phases with a fixed meaning:
//   BEGIN_REQ (forward): the packet's head will be wholly in the receiver's buffer after the
//     annotated delay (= packet.head_at); the receiver must have room, the sender checked credits.
//   END_REQ (backward): the packet has left the receiver's buffer; its wire_flits() credits for
//     VC header.vc are usable by the sender after the annotated delay.
// There is no response phase: packets are posted.

#include <systemc>
#include <tlm>

#include "models/core/packet.h"
#include "models/timing/fabric_clock.h"

namespace angara {

struct FabricProtocol {
  using tlm_payload_type = Packet;
  using tlm_phase_type = tlm::tlm_phase;
};

}  // namespace angara
