#pragma once
// The two ends of a router-to-router link cut between MPI ranks. The upstream router's rank has
// the link's LinkTx in place of the downstream router; the downstream router's rank has its
// LinkRx in place of the upstream router. What the link carries (a packet forward, credits
// backward) is posted as a record to the other rank and applied there at the end of the window
// it was sent in. Every such effect lands at least a link's latency plus a flit later than the
// cycle it was sent at, and a window is shorter than that, so it lands after the window ends;
// a record that would land within the window ended is a model error, never a late packet.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <string>

#include "models/core/packet_pool.h"
#include "models/fabric/fabric_protocol.h"

namespace angara {

// A directed link: its upstream router x directions + the direction it leaves by.
using LinkId = std::uint32_t;

// Where the ends of cut links post what crosses to another rank.
class CutPost {
 public:
  virtual ~CutPost() = default;
  virtual void post_packet(LinkId link, const Packet& packet) = 0;
  virtual void post_credit(LinkId link, Credit credit, Cycle at) = 0;
};

// What either end of a cut link knows: which link, its name for errors ("(1,0,3) +Z"), where
// to post, the pool its packets come from and go to, and the clock.
struct CutLinkEnd {
  LinkId link;
  std::string what;
  CutPost& post;
  PacketPool& pool;
  const FabricClock& clock;
};

// The upstream end: takes the upstream router's packets, gives it the downstream's credits.
class LinkTx : public sc_core::sc_module {
 public:
  // Bound to the router's out[d] alone (multi-sockets, as the routers': their payload is ours).
  tlm_utils::multi_passthrough_target_socket<LinkTx, 0, FabricProtocol> in;

  LinkTx(const sc_core::sc_module_name& name, CutLinkEnd end);
  // Credits from the downstream rank, usable by the upstream router from cycle `at`.
  void give_credit(Credit credit, Cycle at);

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  CutLinkEnd m_end;
};

// The downstream end: gives the downstream router the upstream's packets, takes its credits.
class LinkRx : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<LinkRx, 0, FabricProtocol> out;  // to in[d]

  LinkRx(const sc_core::sc_module_name& name, CutLinkEnd end);
  // A packet from the upstream rank, its head in the downstream router's buffer at head_at.
  void deliver(const Packet& packet);

 private:
  tlm::tlm_sync_enum nb_transport_bw(int port, FabricPayload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  CutLinkEnd m_end;
};

}  // namespace angara
