#pragma once
// The loosely-timed router. A packet crosses it inside one blocking call: RouterCore routes it
// and times it as in AT, the output channel is booked in a LinkCalendar, and the packet goes on
// to the next module in the same call chain. With buffers modelled (sim.lt_buffers) the booking
// waits also for the crossbar input, the packets ahead in the input VC and room in the buffer
// behind the output (a HoldCalendar per output VC: AT's credits, known ahead); the next module
// tells on return when the packet left that buffer (the annotated delay), and the hold ends then. A
// packet with several destinations issues its copies one after another through its crossbar input,
// as in AT (with buffers, each next to the output that can take it first, as AT's allocation
// grants them); copies for the PEGroup are handed over at once and what the PEGroup sends goes on
// in the same call. The machine's WakeCalendar wakes the PEGroup's timer, only when one is set. See
// docs/LT.md for where this departs from AT.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <array>
#include <bit>
#include <memory>
#include <optional>

#include "models/core/ring_queue.h"
#include "models/fabric/ejection_end.h"
#include "models/fabric/fabric_protocol.h"
#include "models/router/input_order.h"
#include "models/router/lt_fabric.h"
#include "models/router/router_core.h"
#include "models/timing/hold_calendar.h"
#include "models/timing/link_calendar.h"
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
  // arriving on input `port` reads first (another router's prefetch_path()).
  void prefetch_output(PortId port) const;
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
  // book()'s cycle (with buffers), nothing booked; and where it goes in the output's and the
  // crossbar input's calendars (no PEGroup output).
  struct Fit {
    Cycle at;
    LinkCalendar::Gap output, input;
    HoldCalendar::Claim claim;  // what it holds of the buffer behind (flits, train lanes)
  };
  Fit fit(OutputRequest& r, Cycle now, int copies);  // `copies`: of the packet, through its input
  int capacity(const OutputRequest& r) const;
  HoldCalendar& holds(const OutputRequest& r);
  LinkCalendar* crossbar_input(PortId input);
  // The option of `route` (RouterCore::for_each_option) a copy of `packet` could start on
  // first, from cycle `from`, and that cycle (nothing booked).
  struct Start {
    RouterCore::Option option;
    Cycle at;
  };
  Start first_start(PortId port, const Packet& packet, const RouterCore::Route& route, Cycle from,
                    Cycle now, int copies);
  // The starts of a packet's copies as last worked out, [output]; `fresh`: those worked out since
  // the last copy was booked; `last`: the last fit worked out since then (and its request after
  // fit()), which book() takes as it is if it is for the copy it books.
  struct CopyStarts {
    struct Worked {
      OutputRequest request;
      Fit fit;
    };
    std::array<Cycle, 32> at;  // set by clear() for the packet's outputs only
    std::uint32_t fresh = 0;
    std::optional<Worked> last;

    void clear(std::uint32_t outs) {
      for (; outs != 0; outs &= outs - 1) at[std::countr_zero(outs)] = 0;
    }
  };
  // The output of a point-to-point or tree `route` whose copy first_start() would choose.
  PortId next_copy(PortId port, const Packet& packet, const RouterCore::Route& route, Cycle from,
                   Cycle now, int copies, CopyStarts& starts);
  // With buffers: the first cycle from `r.earliest` at which the output is free for `r.length`
  // cycles, the crossbar input too, and the buffer behind it has room, booked there; a train's
  // tail paced by the credit loop, and no earlier than `tail_floor` (RouterCore::tail_floor);
  // next_copy()'s fit, from `starts`, where it is for this request.
  Cycle book(OutputRequest& r, Cycle now, int copies, Cycle tail_floor,
             const CopyStarts* starts = nullptr);
  struct Stream {
    int lanes;     // its packets in the buffer at once (HoldCalendar's lanes)
    int packet;    // flits
    Cycle step;    // from one packet's start to the next's
    Cycle period;  // from its start until the next train of the stream may start
    Cycle tail;    // from its start until its tail has left
  };
  Stream stream(const OutputRequest& r) const;
  // The least time a packet of `length` cycles through output `port`, VC `vc`, holds the buffer
  // behind it.
  Cycle least_hold(PortId port, VcId vc, Cycle length) const;
  void send(const CollectiveSend& send, Cycle now);
  // With buffers: the PEGroup's sends whose cycle at the crossbar input has come, booked.
  void send_due(Cycle now);
  void woken() override;  // the PEGroup's timer, or its next send's cycle
  void arm_timer();
  bool buffers() const { return m_holds != nullptr; }  // sim.lt_buffers
  // Plans the path of the packet with `header` from here and asks the cache for what its hops
  // will read, through each router's prefetch_output() and prefetch_input().
  void prefetch_path(const PacketHeader& header) const;
  // The input port of the router that link port `port` leads to.
  PortId next_input(PortId port) const;

  // Carries out a copy RouterCore::issue() has booked: into the PEGroup, whose sends go on at
  // once, or on to the next module (the packet may be recycled after this call).
  void hand_on(const Grant& grant, Cycle now);

  // RouterCore::issue()'s view of this router: an output is booked in its calendar, a copy
  // handed on at once.
  struct Issue {
    RouterLt& router;
    Cycle now;
    std::uint32_t outs;  // of the packet being issued
    const Packet& packet;
    const CopyStarts* starts;  // next_copy()'s, for the copy being booked

    int copies() const { return std::popcount(outs); }
    Cycle book(OutputRequest& r) {
      if (r.train == 1) return router.book(r, now, 1, 0, starts);
      return router.book(r, now, copies(), router.m_core.tail_floor(r.in, r.out, packet), starts);
    }
    void hand_on(const Grant& grant) { router.hand_on(grant, now); }
  };

  // What a hop touches: the first line of these (a fat tree's switch also the second), a line of
  // these and the head of m_core, and one output's calendar, with buffers also its crossbar
  // input's, a hold calendar and an input order (prefetch_path() asks for exactly those).
  alignas(64) std::array<RouterLt*, kMaxLinkPorts> m_next{};  // [link port]
  const FabricClock& m_clock;
  // With buffers (sim.lt_buffers) only, [port * VCs + vc]: the buffers behind, the input FIFOs
  // (this router's share of the fabric's LtBuffers).
  HoldCalendar* m_holds = nullptr;
  InputOrder* m_order = nullptr;
  LtFabric* m_fabric = nullptr;
  EjectionEnd* m_endpoint = nullptr;  // on the local port
  RouterCore m_core;
  // [port], the crossbar inputs without the PEGroup's: a torus router's in place, a fat tree
  // switch's further ports in m_wide (so that a torus router stays as small as it was).
  std::array<LinkCalendar, 2 * kMaxDims + 2> m_outputs;
  std::array<LinkCalendar, 2 * kMaxDims + 1> m_crossbar_inputs;
  std::unique_ptr<LinkCalendar[]> m_wide;  // outputs, then crossbar inputs, past those
  LinkCalendar* output(PortId port) const { return wide_or(m_outputs, port, false); }
  LinkCalendar* crossbar(PortId port) const { return wide_or(m_crossbar_inputs, port, true); }
  // A port in place is found without reading the router (prefetch_path() relies on it); only
  // m_wide's crossbar inputs need its port count, to skip its outputs.
  template <typename Array>
  LinkCalendar* wide_or(const Array& in_place, PortId port, bool crossbars) const {
    if (port < in_place.size()) return const_cast<LinkCalendar*>(&in_place[port]);
    const std::size_t wide_from = crossbars ? m_core.port_count() - m_outputs.size() : 0;
    return &m_wide[wide_from + port - in_place.size()];
  }
  Cycle m_pegroup_input_free = 0;  // the crossbar input from the PEGroup
  // With buffers: what the PEGroup sends, in order, until the crossbar input takes it. Its queue
  // is unbounded (as in AT); booked at once, a stream of broadcasts would book the links and
  // buffers down its tree milliseconds ahead, thousands of intervals a calendar.
  RingQueue<CollectiveSend> m_pegroup_sends;
};

}  // namespace angara
