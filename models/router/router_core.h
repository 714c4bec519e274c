#pragma once
// The router's function and timing rules without SystemC: input VC FIFOs, credit counters in
// flits, routing, round-robin switch allocation. The AT shell (router_at.h) feeds it packets and
// credits with the cycles at which they arrive and carries out its grants; the LT shell of
// issue 3 is to drive the same class.
//
// Switching is virtual cut-through: a packet is forwarded as soon as its head is in, but only when
// the next buffer has room for all of it (plus the bubble when it enters a ring), so a blocked
// packet always sits wholly in one buffer. Per-hop pipeline, in router cycles, documented in
// docs/ARCHITECTURE.md: a head wholly in the input buffer at cycle t may start on the output at
// t + pipeline_cycles (route, allocate, traverse); the output channel then carries the packet for
// serialization(flits) cycles and its head is wholly in the next buffer latency + serialization(1)
// cycles after it started.

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "models/core/packet.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/router/credit_counter.h"
#include "models/routing/direction_order_routing.h"

namespace angara {

// A packet leaving the router: the shell returns credits upstream and forwards the packet.
struct Grant {
  Packet* packet = nullptr;
  PortId in_port = 0;
  VcId in_vc = 0;
  PortId out_port = 0;
  VcId out_vc = 0;
  Cycle start = 0;     // cycle the head starts on the output channel
  Cycle tail_out = 0;  // cycle the tail has left this router (the input buffer space is free)
};

class RouterCore {
 public:
  // Port numbering: directions 0 .. 2*dims-1 (Direction::index()), then the local port
  // (injection in, ejection out). Input port d holds packets travelling in direction d.
  RouterCore(NodeId id, const Torus& torus, const DirectionOrderRouting& routing,
             const RouterParams& params, const ChannelTiming& link, const ChannelTiming& local);

  NodeId id() const { return m_id; }
  PortId local_port() const { return m_local; }
  int port_count() const { return m_local + 1; }
  const ChannelTiming& timing(PortId port) const { return port == m_local ? m_local_t : m_link_t; }

  // Where a packet goes from input `port`: output port, VC there, and the free flits that VC must
  // show before the packet may go (flow-control rule of the deadlock scheme).
  struct Route {
    PortId out = 0;
    VcId out_vc = 0;
    int need = 0;
  };
  Route route(PortId port, const Packet& packet) const;
  // Earliest cycle `packet` may start on its output: pipeline after its head arrived, and not
  // so early that its tail would leave before arriving. Credits and busy ports aside.
  Cycle ready_at(const Packet& packet, const Route& route) const;

  // A packet announced by the upstream; its head_at/tail_at say when it is in this router's
  // buffer (input `port`, VC header.vc). Returns the cycle to wake for it, or kNever when a
  // packet ahead of it in the same VC already holds a wake-up.
  Cycle receive(PortId port, Packet& packet);

  // `flits` credits for output (port, vc), usable from cycle `at`. Returns true when a packet is
  // waiting for them, i.e. the shell should wake at `at`.
  bool return_credits(PortId port, VcId vc, int flits, Cycle at);

  // Switch allocation at cycle `now`: appends the packets that start on an output now.
  void allocate(Cycle now, std::vector<Grant>& grants);

  // Moves a granted packet onto its output: next VC, and when it will be in the next buffer.
  void forward(Packet& packet, const Grant& grant);

  // The next cycle after `now` at which allocate() can make progress with what is known now.
  Cycle next_wakeup(Cycle now);

  // For the deadlock watchdog: the oldest head packet still waiting, or none.
  struct Blocked {
    Cycle since = 0;
    std::string what;
  };
  std::optional<Blocked> oldest_blocked(Cycle now) const;

  std::uint64_t flit_hops() const { return m_flit_hops; }  // flits sent to other routers
  std::string port_name(PortId port) const;

 private:
  struct Queued {
    Packet* packet;
    Route route;
  };

  int input_index(PortId port, VcId vc) const { return port * m_vcs + vc; }

  NodeId m_id;
  const Torus& m_torus;
  const DirectionOrderRouting& m_routing;
  int m_vcs;
  int m_pipeline;
  PortId m_local;
  ChannelTiming m_link_t, m_local_t;

  std::vector<RingQueue<Queued>> m_inputs;  // [port * vcs + vc]
  std::vector<Cycle> m_input_busy;          // [port]: crossbar input free from this cycle
  std::vector<Cycle> m_output_busy;         // [port]: output channel free from this cycle
  std::vector<CreditCounter> m_credits;     // [port * vcs + vc]: free flits downstream
  std::vector<int> m_round_robin;           // [port]: last input index granted this output
  std::vector<int> m_requests;              // scratch: input VCs that may start this cycle
  std::uint64_t m_flit_hops = 0;
};

}  // namespace angara
