#pragma once
// The loosely-timed router: a SystemC shell over the hop rules (RouterCore) and LT's reservation
// model (lt/reservations.h). A packet crosses it inside one blocking call: routed and timed as in
// AT, booked, and handed on to the next module in the same call chain. With buffers
// (sim.lt_buffers) it waits also for the packets ahead in its input VC (InputOrder), and the next
// module tells on return when the packet left the buffer behind the output (the annotated delay),
// where its hold ends. A packet's copies issue one after another through its crossbar input;
// copies for the PEGroup are handed over at once and what the PEGroup sends goes on in the same
// call. The machine's WakeCalendar wakes the PEGroup's timer, only when one is set. docs/LT.md
// says where this departs from AT.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <array>
#include <bit>
#include <cstdint>

#include "models/core/ring_queue.h"
#include "models/fabric/ejection_end.h"
#include "models/fabric/fabric_protocol.h"
#include "models/router/lt/input_order.h"
#include "models/router/lt/lt_fabric.h"
#include "models/router/lt/reservations.h"
#include "models/router/router_core.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class RouterLt : public sc_core::sc_module, private WakeCalendar::Sleeper {
 public:
  // Bound like RouterAt: out[p]/in[p] for link port p, then the local port.
  tlm_utils::multi_passthrough_initiator_socket<RouterLt, 0, FabricProtocol> out;
  tlm_utils::multi_passthrough_target_socket<RouterLt, 0, FabricProtocol> in;

  RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock);

  const RouterCore& core() const { return m_core; }

  // The fabric it is part of, once bound (LtFabric hands it over): a hop then makes the call the
  // socket would make itself; the fabric's calendar wakes the PEGroup's timer, and with its
  // buffers the router models those behind its outputs (without: only the channels).
  void set_fabric(LtFabric& fabric);
  // Asks the cache for what a hop through output `port` here reads; and for what a packet
  // arriving on input `port` reads first (LtFabric::plan()).
  void prefetch_output(PortId port) const { m_reservations.prefetch_output(port); }
  void prefetch_input(PortId port) const;
  // Its ports' VCs, ports x VCs per port: its share of LtBuffers.
  std::size_t port_vcs() const {
    return static_cast<std::size_t>(m_core.port_count()) * m_core.vc_count();
  }

 private:
  // `delay` in: the head's arrival; out: when the packet has left its input buffer here.
  void b_transport(int port, Packet& packet, sc_core::sc_time& delay);
  // b_transport() in cycles, as the routers of the fabric call one another (a whole path runs
  // at one cycle, `now`): takes `packet` in at input `port` and returns the cycle it has left
  // its input buffer here (with buffers; else its ready cycle).
  Cycle hop(PortId port, Packet& packet, Cycle now);
  // Sends `packet` from input `port` to every output of `route`, from cycle `ready` on; returns
  // the cycle the tails of all its copies have left.
  Cycle pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready, Cycle now);
  // Carries out a copy RouterCore::issue() has booked: into the PEGroup, whose sends go on at
  // once, or on to the next module (the packet may be recycled after this call).
  void hand_on(const Grant& grant, Cycle now);
  void send(const CollectiveSend& send, Cycle now);
  // With buffers: the PEGroup's sends whose cycle at the crossbar input has come, booked.
  void send_due(Cycle now);
  void woken() override;  // the PEGroup's timer, or its next send's cycle
  void arm_timer();
  bool buffers() const { return m_order != nullptr; }  // sim.lt_buffers
  // The input port of the router that link port `port` leads to.
  PortId next_input(PortId port) const;

  // RouterCore::issue()'s view of this router: a copy booked in its reservations, handed on at
  // once.
  struct Issue {
    RouterLt& router;
    Cycle now;
    std::uint32_t outs;  // of the packet being issued
    const Packet& packet;
    const LtReservations::CopyStarts* starts;  // next_copy()'s, for the copy being booked

    int copies() const { return std::popcount(outs); }
    Cycle book(OutputRequest& r) {
      LtReservations& lt = router.m_reservations;
      if (r.train == 1) return lt.book(r, now, 1, 0, starts);
      return lt.book(r, now, copies(), router.m_core.tail_floor(r.in, r.out, packet), starts);
    }
    void hand_on(const Grant& grant) { router.hand_on(grant, now); }
  };

  // What a hop touches: the first line of these (a fat tree's switch also the second), a line of
  // these and the head of m_core, and one output's calendar, with buffers also its crossbar
  // input's, a hold calendar and an input order (LtFabric::plan() asks for exactly those).
  alignas(64) std::array<RouterLt*, kMaxLinkPorts> m_next{};  // [link port]
  const FabricClock& m_clock;
  InputOrder* m_order = nullptr;  // with buffers: [port * VCs + vc], the input FIFOs
  LtFabric* m_fabric = nullptr;
  EjectionEnd* m_endpoint = nullptr;  // on the local port
  RouterCore m_core;
  LtReservations m_reservations{m_core};
  Cycle m_pegroup_input_free = 0;  // the crossbar input from the PEGroup
  // With buffers: what the PEGroup sends, in order, until the crossbar input takes it. Its queue
  // is unbounded (as in AT); booked at once, a stream of broadcasts would book the links and
  // buffers down its tree far ahead.
  RingQueue<CollectiveSend> m_pegroup_sends;
};

}  // namespace angara
