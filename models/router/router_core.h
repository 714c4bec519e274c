#pragma once
// The router's hop rules, which both timing modes follow: where a packet goes (routing, the
// collective subnet's VCs through the CollectiveUnit seam), when it may start on an output
// (pipeline, VCUp/VCDown's table read and head analysis, link and block timing), what it asks of
// the output and the buffer behind it, and issuing a copy through one function, issue(), whose
// booking and hand-on the timing shell supplies. No SystemC and no state between cycles: AT's
// input FIFOs, credits and round robin are AtSwitch's (at_switch.h), LT's reservations are
// LtSwitch's (lt/lt_switch.h).
//
// Point-to-point switching is virtual cut-through by default: a packet is forwarded as soon as
// its head is in, but only when the next buffer has room for all of it (plus the bubble when it
// enters a ring), so a blocked packet always sits wholly in one buffer. With wormhole
// (router.switching) a packet longer than the buffers takes an empty VC and spans several
// routers, its flits timed by worm.h; the deadlock argument is at route_p2p(). Per-hop pipeline, in
// router cycles (docs/ARCHITECTURE.md): a head wholly in the input buffer at cycle t may start on
// the output at t + pipeline_cycles (route, allocate, traverse); the output channel then carries
// the packet for serialization(flits) cycles and its head is wholly in the next buffer latency +
// serialization(1) cycles after it started.
//
// Collective packets (docs/COLLECTIVES.md) use two more VCs per port, VCUp and VCDown, and are
// stored whole before the routing table is read (table_cycles) and the head analysed
// (analysis_cycles). A packet with several destinations issues one copy at a time through its
// crossbar input; it leaves its buffer with the last copy. An internal port connects the crossbar
// to the PEGroup, in both directions.

#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/packet.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/router/collective_unit.h"
#include "models/router/contention.h"
#include "models/router/failing_links.h"
#include "models/router/issue.h"
#include "models/router/router_stats.h"
#include "models/router/worm.h"
#include "models/routing/network_routing.h"

namespace angara {

// What every router of one machine reads and none changes. A hop reads it, so one copy stays in
// cache for all routers; a copy per router would be another cache miss per hop on a large torus.
struct RouterShared {
  // `seed`: the run's, for a fat tree's random up paths.
  RouterShared(const Topology& topology, const FabricParams& params, std::uint64_t seed);

  const Topology& topology;
  NetworkRouting routing;
  VcLayout vcs;      // as routing numbers them
  int buffer_flits;  // per point-to-point VC
  int pipeline;
  CollectiveParams coll;
  ChannelTiming link, local, internal;
  bool wormhole;
  // Wormhole under the bubble on a torus: a ring's VC holds one packet at a time
  // (ring_budget.h).
  bool worm_bubble;
  int local_buffer_flits;  // the local port's point-to-point VCs (RouterParams)
  // Wormhole: the machine's worms, which every router's hops update (null with vct).
  std::unique_ptr<WormPool> worms;
  // Wormhole: the least a worm of so many flits holds a link's buffer (Worm::least_hold; LT
  // with buffers books its holds for at least that long), by flits; 0 for packets that fit.
  std::array<Cycle, kMaxPacketFlits + 1> worm_holds{};
};

class RouterCore {
 public:
  // Port numbering: link ports (a torus: directions 0 .. 2*dims-1, Direction::index()), then
  // the local ports (injection in, ejection out: one, or a fat tree leaf's one per host, none
  // above it), then the internal PEGroup port. On a torus
  // input port d holds packets travelling in direction d. VCs per port: router.vcs point-to-point
  // VCs, then VCUp, VCDown. `collective` may be null (no trees); `pool` makes the copies of
  // multi-destination packets.
  RouterCore(NodeId id, const RouterShared& shared, std::unique_ptr<CollectiveUnit> collective,
             PacketPool& pool);

  NodeId id() const { return m_id; }
  const RouterShared& shared() const { return m_shared; }
  // Link ports are below first_local(); local ports from it up to pegroup_port().
  PortId first_local() const { return m_first_local; }
  bool is_link(PortId port) const { return port < m_first_local; }
  bool is_local(PortId port) const { return port >= m_first_local && port < m_pegroup; }
  PortId pegroup_port() const { return m_pegroup; }
  int port_count() const { return m_pegroup + 1; }
  int vc_count() const { return m_vc_count; }  // per port: point-to-point VCs, VCUp, VCDown
  VcId vc_up() const { return m_shared.vcs.up(); }
  VcId vc_down() const { return m_shared.vcs.down(); }
  const ChannelTiming& timing(PortId port) const {
    if (is_local(port)) return m_shared.local;
    return port == pegroup_port() ? m_shared.internal : m_shared.link;
  }

  // Where a packet that arrived on input `port` goes: the output ports still to serve, its VC
  // there (point-to-point) and the free flits that VC must show before it may go.
  // An adaptive route asks for one of `outs` instead: on an adaptive VC, or on output `escape`,
  // VC p2p_vc with `need` free flits (routing/adaptive_routing.h).
  struct Route {
    std::uint32_t outs = 0;  // bit per output port
    VcId p2p_vc = 0;
    int need = 0;
    bool adaptive = false;
    PortId escape = 0;
  };
  Route route(PortId port, Packet& packet);
  // route() of a point-to-point packet whose next step is already known.
  Route route_p2p(const RouteStep& step, const Packet& packet) const;
  // An output a packet may take next, its VC there, and the free flits that VC must show.
  struct Option {
    PortId out = 0;
    VcId vc = 0;
    int need = 0;
  };
  // Calls fn(Option) for what `packet` from input `in` may take next, in order of preference:
  // each output of `route` (an adaptive route: each adaptive VC of each of its outputs, then the
  // escape VC).
  template <typename Fn>
  void for_each_option(PortId in, const Packet& packet, const Route& route, Fn fn) const;
  // The route that takes `option` only (an adaptive route, narrowed once it is chosen).
  static Route only(const Option& option) { return {bit(option.out), option.vc, option.need}; }
  // Earliest cycle `packet` may start on an output of `route` (credits and busy ports aside).
  Cycle ready_at(PortId port, const Packet& packet, const Route& route) const;
  // The earliest cycle an LT train from input `in` can have its tail out of output `out`: once
  // its last packet is in (VCUp/VCDown: stored, routed, then sent).
  Cycle tail_floor(PortId in, PortId out, const Packet& packet) const;
  // The VC a packet takes on output `out`.
  VcId out_vc(PortId out, const Packet& packet, const Route& route) const;
  // Free flits output `out`'s VC must show before `packet` from input `in` may take it.
  int need(PortId in, PortId out, const Packet& packet, const Route& route) const;
  // The flits of output `out`'s VC `vc`: the buffer behind it (the PEGroup's: unlimited).
  int buffer_flits(PortId out, VcId vc) const {
    if (out == pegroup_port()) return kUnlimited;
    if (m_shared.vcs.collective(vc)) return m_shared.coll.buffer_flits;
    return is_local(out) ? m_shared.local_buffer_flits : m_shared.buffer_flits;
  }
  // Wormhole: `packet` spans routers from here on through output `out` (a point-to-point packet
  // longer than the buffers, going to another router).
  bool worm(PortId out, const Packet& packet) const;
  // Tells the upstream of `in_vc` when a worm's tail has left here (RouterAt; LT reads issue()'s
  // return instead).
  void set_worm_owner(WormOwner* owner) { m_worm_owner = owner; }
  // What a copy of `packet` from input `in` asks of output `out` (one of `route.outs`) from
  // cycle `earliest` on.
  OutputRequest request_for(PortId in, PortId out, const Packet& packet, const Route& route,
                            Cycle earliest) const;
  // A copy for one more destination, or the packet itself for its last one.
  Packet* copy_for(Packet& packet, bool last);

  // Whether `route` asks for a link that fails during the run; and one that has failed by `at`
  // (failing_links.h: a packet that would start on it then is diverted into the internal port).
  bool toward_failing(const Route& route) const { return m_failing.toward(route.outs); }
  bool diverts(const Route& route, Cycle at) const { return m_failing.failed(route.outs, at); }
  const FailingLinks& failing() const { return m_failing; }
  // The route of a packet diverted into the internal port.
  Route diverted(const Packet& packet) const {
    return {bit(pegroup_port()), 0, packet.wire_flits()};
  }
  // Packets diverted around a failed link here.
  std::uint64_t rerouted() const { return m_rerouted; }
  // LT: a copy booked at kernel cycle `now` whose tail leaves at `tail_out`.
  void booked(Cycle tail_out, Cycle now) {
    m_booked_ahead = std::max(m_booked_ahead, tail_out > now ? tail_out - now : 0);
  }
  Cycle booked_ahead() const { return m_booked_ahead; }
  // LT: a copy from the local port that waited `behind` cycles for copies booked on its output
  // before it (transit ones: the processor's own come through its crossbar input one by one).
  void injected(Cycle behind, Cycle length) { m_injected.add(behind, length); }
  const Contention& injected() const { return m_injected; }

  // Issues one copy of `packet` (held in input `in`, VC `in_vc`) to output `out`, one of
  // `route.outs`, and clears it there: the copy (the packet itself for its last output), its VC
  // on the output, and its time there, booked by the shell no earlier than `input_free`, when
  // the crossbar input is free; the input then carries it until it is out (`input_free` becomes
  // that cycle). The shell then hands it on. Returns the cycle its tail has left. AtSwitch
  // issues through its allocation, LtSwitch every output of a packet in turn.
  template <IssueShell Shell>
  Cycle issue(Shell& shell, PortId in, VcId in_vc, Packet& packet, Route& route, PortId out,
              Cycle& input_free) {
    const IssuedCopy copy = start_issue(shell, in, in_vc, packet, route, out, input_free);
    shell.hand_on(copy.grant);
    return finish_issue(copy);
  }
  // issue() in halves, for a shell that carries out the hand-on's consequences later (LT's path
  // as a loop): the copy booked, its grant to hand on; then, once handed on, its tail's cycle.
  struct IssuedCopy {
    Grant grant;
    std::uint32_t worm_id = 0;  // a worm's tail is known only once handed on
    int worm_hop = -1;
  };
  template <BookingShell Shell>
  IssuedCopy start_issue(Shell& shell, PortId in, VcId in_vc, Packet& packet, Route& route,
                         PortId out, Cycle& input_free);
  Cycle finish_issue(const IssuedCopy& copy) {
    return finish_issue(copy.grant.tail_out, copy.worm_id, copy.worm_hop);
  }
  Cycle finish_issue(Cycle tail_out, std::uint32_t worm_id, int worm_hop) {
    if (worm_id == 0) [[likely]]
      return tail_out;
    return finish_worm_issue(tail_out, worm_id, worm_hop);
  }

  // The PEGroup takes the copy `grant` gave it, wholly in when its tail has left the crossbar;
  // appends what it sends.
  void pegroup_accept(const Grant& grant, std::vector<CollectiveSend>& sends);
  // The route of a PEGroup send from the internal port, the send at the crossbar (head and tail)
  // from its ready cycle; a send with nowhere to go (Down at a node without children) is
  // recycled and gets no outputs.
  Route route_send(const CollectiveSend& send);
  CollectiveUnit* collective() const { return m_collective.get(); }

  // VCUp/VCDown's table read and head analysis for a packet from input `port` (else 0).
  Cycle routing_cycles(PortId port, const Packet& packet) const;
  // Those of a collective packet from a link port.
  Cycle collective_routing_cycles() const {
    return m_shared.coll.table_cycles + m_shared.coll.analysis_cycles;
  }

  // Moves a granted packet onto its output: next VC, and when it will be in the next buffer.
  void forward(Packet& packet, const Grant& grant);

  // Turns network statistics on for this router over [from, to) (router_stats.h); `buffers`:
  // the shell models input buffers, whose occupancy is then kept.
  void set_stats(Cycle from, Cycle to, bool buffers);
  const RouterStats* stats() const { return m_stats.get(); }

  std::uint64_t flit_hops() const { return m_flit_hops; }  // flits sent to other routers
  const Contention& contention() const { return m_contention; }
  std::string port_name(PortId port) const;

 private:
  static constexpr int kUnlimited = 1 << 30;  // flits: the PEGroup takes whatever it is handed
  static std::uint32_t bit(int port) { return 1U << port; }
  // An adaptive packet's route; `arrived`/`vc_class`: on the escape VC, by that port in that class.
  Route route_adaptive(const Packet& packet, std::optional<PortId> arrived, int vc_class) const;
  Cycle first_packet_tail(PortId port, const Packet& packet) const;
  // Wormhole: adds output `out` (VC `vc`, granted at `start`) to the worm of `packet`, begun here
  // if it has none; returns the hop's index.
  int add_worm_hop(Packet& packet, PortId in, VcId in_vc, PortId out, VcId vc, Cycle start);
  // Throws: a packet was to start on a failed link (diverts() should have caught it).
  [[noreturn]] void failed_link_taken(PortId out, Cycle start) const;
  Cycle finish_worm_issue(Cycle tail_out, std::uint32_t worm_id, int worm_hop);
  // Tells the statistics of a copy issued from input (in, in_vc) to `out`, before it is handed on
  // (an LT hand-on moves the packet's cycles on to the next router).
  void record_issue(PortId in, VcId in_vc, PortId out, bool last, const Packet& packet,
                    const Route& route, const OutputRequest& request, Cycle start, Cycle tail_out);

  // What a loosely-timed hop touches comes first: 40 bytes, which LtSwitch keeps in one line.
  NodeId m_id;
  PortId m_first_local;
  PortId m_pegroup;
  const RouterShared& m_shared;
  std::unique_ptr<CollectiveUnit> m_collective;
  PacketPool* m_pool;
  std::uint64_t m_flit_hops = 0;
  int m_vc_count;                        // all VCs per port: point-to-point + VCUp + VCDown
  std::unique_ptr<RouterStats> m_stats;  // null: statistics off (one test per hop)
  Contention m_contention;               // the transit copies'
  Contention m_injected;                 // LT: injected()

  WormOwner* m_worm_owner = nullptr;
  FailingLinks m_failing;
  std::uint64_t m_rerouted = 0;
  Cycle m_booked_ahead = 0;
};

template <BookingShell Shell>
RouterCore::IssuedCopy RouterCore::start_issue(Shell& shell, PortId in, VcId in_vc, Packet& packet,
                                               Route& route, PortId out, Cycle& input_free) {
  // One bit left (no std::popcount: without -mpopcnt it is a library call on every hop).
  const bool last = (route.outs & (route.outs - 1)) == 0;
  OutputRequest request = request_for(in, out, packet, route, input_free);
  Packet* p = copy_for(packet, last);
  route.outs &= ~bit(out);
  const VcId vc = request.vc;
  const Cycle start = shell.book(request);
  // Transit copies only: a source's own packets queue behind one another at its router as they
  // would in any timing model.
  if (is_link(in))
    m_contention.add(start > request.earliest ? start - request.earliest : 0, request.length);
  if (m_failing.taken(out, start)) [[unlikely]] {
    failed_link_taken(out, start);
  }
  input_free = start + request.input;
  Cycle tail_out = start + request.tail;
  // Wormhole: the channel and the crossbar input carry the packet's flits for `length` cycles
  // (their share of the link; a stalled worm's flits wait in the buffers, not on the link), but
  // its tail leaves only when the routers ahead have made room: known now at its last hop, later
  // (AT: told to the owner) or once the hand-on's call chain has ejected it (LT) otherwise.
  std::uint32_t worm_id = 0;
  int worm_hop = -1;
  if (m_shared.wormhole && (p->worm != 0 || worm(out, *p))) [[unlikely]] {
    worm_hop = add_worm_hop(*p, in, in_vc, out, vc, start);
    worm_id = p->worm;
    tail_out = m_shared.worms->at(worm_id).tail(worm_hop);
    if (is_local(out)) p->worm = 0;  // the endpoint takes it whole
  }
  if (m_stats) [[unlikely]] {
    record_issue(in, in_vc, out, last, packet, route, request, start, tail_out);
  }
  return {Grant{p, in, in_vc, last, out, vc, start, tail_out}, worm_id, worm_hop};
}

template <typename Fn>
void RouterCore::for_each_option(PortId in, const Packet& packet, const Route& route, Fn fn) const {
  if (!route.adaptive) {
    for (std::uint32_t outs = route.outs; outs; outs &= outs - 1) {
      const auto out = static_cast<PortId>(std::countr_zero(outs));
      fn(Option{out, out_vc(out, packet, route), need(in, out, packet, route)});
    }
    return;
  }
  const int flits = packet.wire_flits();
  for (std::uint32_t outs = route.outs; outs; outs &= outs - 1) {
    const auto out = static_cast<PortId>(std::countr_zero(outs));
    for (int vc = m_shared.vcs.first_adaptive; vc < m_shared.vcs.p2p; ++vc) {
      fn(Option{out, static_cast<VcId>(vc), flits});
    }
  }
  fn(Option{route.escape, route.p2p_vc, route.need});
}

inline OutputRequest RouterCore::request_for(PortId in, PortId out, const Packet& packet,
                                             const Route& route, Cycle earliest) const {
  const int flits = packet.wire_flits();
  const ChannelTiming& t = timing(out);
  const Cycle length = t.serialization(flits);
  Cycle spacing = 0;
  if (packet.train > 1 && packet.tail_at != kNever) {
    // From its head's start on the link before to its tail's end: the train's whole passage.
    const Cycle passage = packet.tail_at - packet.head_at + t.serialization(1);
    const Cycle last = t.serialization(packet.packet_flits());
    if (passage > last) spacing = (passage - last) / (packet.train - 1);
  }
  return {in,
          out,
          out_vc(out, packet, route),
          flits,
          need(in, out, packet, route),
          earliest,
          length,
          length,
          length,
          static_cast<int>(packet.train),
          spacing};
}

// Inline: RouterCore::issue, a template both shells instantiate, asks it for every copy.
inline VcId RouterCore::out_vc(PortId out, const Packet& p, const Route& r) const {
  if (out == pegroup_port()) return 0;
  if (!is_collective(p.header.kind)) return r.p2p_vc;
  if (is_local(out)) return vc_up();  // the endpoint's collective buffer
  // Up-bound collective packets use VCUp, down-bound ones VCDown.
  const bool up =
      p.header.kind == PacketKind::Reduce || p.header.kind == PacketKind::BroadcastRequest;
  return up ? vc_up() : vc_down();
}

// VCUp and VCDown inherit the deterministic VC's bubble flow control: overlapping trees chain
// their ring segments into whole rings, so a collective packet entering a ring (from another
// direction, the processor or the PEGroup) needs room for one more largest packet.
inline int RouterCore::need(PortId in, PortId out, const Packet& p, const Route& r) const {
  if (!is_collective(p.header.kind) || !is_link(out) || out == in) return r.need;
  return r.need + kMaxPacketFlits;
}

}  // namespace angara
