#pragma once
// LT's switch of one router: a packet's hop through it as one call. Routed and timed by the hop
// rules (RouterCore), its copies booked in the reservations one after another through their
// crossbar input (the copy that can start first goes first, as AT's allocation would grant it),
// and each copy handed on at once: to the next router's switch, to the node's end of the local
// port, or into the PEGroup, whose sends go on in the same call. With buffers (sim.lt_buffers) a
// packet waits also for those ahead in its input VC (InputOrder), and the next switch tells on
// return when the packet left the buffer behind the output, where its hold ends. The machine's
// WakeCalendar wakes the PEGroup's timer, only when one is set, and a root's turned broadcasts.
// RouterLt is its SystemC shell.

#include <array>
#include <bit>
#include <cstdint>
#include <memory>

#include "models/core/ring_queue.h"
#include "models/fabric/ejection_end.h"
#include "models/router/lt/input_order.h"
#include "models/router/lt/lt_fabric.h"
#include "models/router/lt/path_step.h"
#include "models/router/lt/reservations.h"
#include "models/router/router_core.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class LtSwitch : private WakeCalendar::Sleeper {
 public:
  LtSwitch(RouterCore core, const FabricClock& clock);
  LtSwitch(const LtSwitch&) = delete;
  LtSwitch& operator=(const LtSwitch&) = delete;

  const RouterCore& core() const { return m_core; }
  // The fabric it is part of (LtFabric hands it over): the switches its links lead to, the node
  // end of its local port, the calendar for the PEGroup's timer, and with buffers its share of
  // them (without: only the channels are booked).
  void set_fabric(LtFabric& fabric);
  // Takes `packet` in at input `port` and books its path from here to its end (a whole path
  // runs at one cycle, `now`, as a loop: path_step.h); returns the cycle it has left its input
  // buffer here (with buffers; else its ready cycle).
  Cycle hop(PortId port, Packet& packet, Cycle now);
  bool buffers() const { return m_order != nullptr; }

  // Asks the cache for what a hop through output `port` here reads; and for what a packet
  // arriving on input `port` reads first (LtFabric::plan()).
  void prefetch_output(PortId port) const { m_reservations.prefetch_output(port); }
  void prefetch_input(PortId port) const;
  // Its ports' VCs, ports x VCs per port: its share of LtBuffers.
  std::size_t port_vcs() const {
    return static_cast<std::size_t>(m_core.port_count()) * m_core.vc_count();
  }

 private:
  // Where a path goes on: `packet` into switch `sw`'s input `port`; none: the path has ended.
  struct Onward {
    LtSwitch* sw = nullptr;
    PortId port = 0;
    Packet* packet = nullptr;
  };
  // What a hop knows of the packet's arrival that its last step needs.
  struct Arrival {
    InputOrder* order;  // with buffers
    Cycle at;
    bool to_pegroup;
  };

  // A hop up to where the packet goes on, its remaining steps left on the chain; `left` as
  // pass()'s.
  Onward arrive(PortId port, Packet& packet, Cycle now, Cycle& left);
  // Books `packet`'s copies from input `port` to every output of `route`, from cycle `ready` on,
  // one after another, and hands each on; the last one's hand-on is where the path goes on.
  // `left`: the cycle the tails of the copies handed on have left, unless steps left on the chain
  // say it; `arrival`: the hop's (none for the PEGroup's sends).
  Onward pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready, Cycle now,
              Cycle& left, const Arrival* arrival);
  // pass() and the path beyond it to its end: the cycle the tails of all its copies have left.
  Cycle pass_whole(PortId port, Packet& packet, RouterCore::Route route, Cycle ready, Cycle now);
  // Books `copies` from the next on: its path, with what it leaves to do on the chain.
  Onward issue_copies(Copies& copies, Cycle now, Cycle& left);
  // Hands on a booked copy, the copies before it having left `free`: to the next switch, as the
  // path's next hop (with `arrival`, the hop's last copy: the hop's steps left as one), or here.
  // `asked`: a step below reads when the copy has left (a packet's other copies); else without
  // buffers or a worm the copy's step is left out, as nothing reads it.
  Onward hand_on(const RouterCore::IssuedCopy& copy, Cycle free, const Arrival* arrival, bool asked,
                 Cycle now);

  // Runs the path from `onward` to its end, and the steps left on the chain above `base` (with
  // the paths they go on to), starting from `left`, what the last hop's copies left; returns
  // what the first step leaves.
  Cycle run(Onward onward, std::size_t base, Cycle left, Cycle now);
  // The last step on the chain (path_step.h), popped: given in `left` what the path beyond it
  // left, and returned there what it leaves; the path goes on where its copies do.
  Onward finish(const PathStep& step, Cycle& left, Cycle now);
  void push_arrived(const Arrival* arrival);
  // What every hand-on to an output does first: the copy leaves this router.
  void leave(const Grant& grant);
  // With buffers: the hold behind output `port`'s VC `vc` ends; the packet has left the buffer
  // there at `left`.
  void close_hold(PortId port, VcId vc, Cycle left);
  // The PEGroup takes a copy; its sends go on (the last one's path left to the caller).
  Onward into_pegroup(const Grant& grant, Cycle now);
  void send(const CollectiveSend& send, Cycle now);
  // With buffers: a broadcast request turned around here, at its tree's root, waits at input
  // `port` and is booked down the tree in turn_due().
  void turn(PortId port, Packet& packet, const RouterCore::Route& route, Cycle ready);
  // With buffers: the turned broadcasts whose turn has come, booked down the tree.
  void turn_due(Cycle now);
  // With buffers: the PEGroup's sends whose cycle at the crossbar input has come, booked.
  void send_due(Cycle now);
  void woken() override;  // the PEGroup's timer, its next send's cycle, or a turned broadcast's
  void arm_timer();
  // The input port of the switch that link port `port` leads to.
  PortId next_input(PortId port) const;

  // RouterCore::start_issue()'s view of this switch: a copy booked in its reservations.
  struct Issue {
    LtSwitch& sw;
    Cycle now;
    std::uint32_t outs;  // of the packet being issued
    const Packet& packet;
    const LtReservations::CopyStarts* starts;  // next_copy()'s, for the copy being booked

    int copies() const { return std::popcount(outs); }
    Cycle book(OutputRequest& r) {
      LtReservations& lt = sw.m_reservations;
      const LtReservations::Booked b =
          r.train == 1
              ? lt.book(r, now, 1, 0, starts)
              : lt.book(r, now, copies(), sw.m_core.tail_floor(r.in, r.out, packet), starts);
      sw.m_core.booked(b.at + r.tail, now);
      if (sw.m_core.is_local(r.in)) sw.m_core.injected(b.behind, r.length);
      return b.at;
    }
  };

  // What a hop touches: the first line of these (a fat tree's switch also the second), a line of
  // these and the head of m_core, and one output's calendar, with buffers also its crossbar
  // input's, a hold calendar and an input order (LtFabric::plan() asks for exactly those).
  alignas(64) std::array<LtSwitch*, kMaxLinkPorts> m_next{};  // [link port]
  const FabricClock& m_clock;
  InputOrder* m_order = nullptr;  // with buffers: [port * VCs + vc], the input FIFOs
  LtFabric* m_fabric = nullptr;
  EjectionEnd* const* m_endpoints = nullptr;  // [local port]: the node ends
  RouterCore m_core;
  LtReservations m_reservations{m_core};
  Cycle m_pegroup_input_free = 0;  // the crossbar input from the PEGroup
  // With buffers: what the PEGroup sends, in order, until the crossbar input takes it. Its queue
  // is unbounded (as in AT); booked at once, a stream of broadcasts would book the links and
  // buffers down its tree far ahead.
  RingQueue<CollectiveSend> m_pegroup_sends;
  // With buffers, at a tree's root: the broadcasts turned around, by the input they came in on,
  // each booked down the tree once the one before it from that input has left, as the input's
  // buffer would send them. Booked at once, every sender's broadcast would be booked at every
  // node, as far ahead as the root takes to send them all (memory and time of N x N bookings).
  struct Turned {
    Packet* packet;
    RouterCore::Route route;
    Cycle ready;
  };
  struct TurnQueue {
    RingQueue<Turned> waiting;
    Cycle free = 0;  // when the last one booked has left the input
  };
  std::unique_ptr<std::array<TurnQueue, kMaxLinkPorts>> m_turned;  // made at the first
};

}  // namespace angara
