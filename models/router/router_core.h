#pragma once
// The router's function and timing rules without SystemC: input VC FIFOs, credit counters in
// flits, routing, round-robin switch allocation, and the collective subnet's VCs through the
// CollectiveUnit seam. The AT shell (router_at.h) feeds it packets and credits with the cycles
// at which they arrive and carries out its grants; the LT shell (router_lt.h) uses its routing
// and timing rules directly. Both issue a packet to an output through one function, issue().
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
// crossbar input, in port order; it leaves its buffer with the last copy. An internal port
// connects the crossbar to the PEGroup, in both directions.

#include <array>
#include <bit>
#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/packet.h"
#include "models/core/packet_pool.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/fabric/credit_counter.h"
#include "models/router/collective_unit.h"
#include "models/router/router_stats.h"
#include "models/router/router_trace.h"
#include "models/router/worm.h"
#include "models/routing/network_routing.h"

namespace angara {

// A packet (or a copy of one) leaving through an output: the shell returns the input's credits
// upstream when `frees_input` and forwards the packet unless the output is the PEGroup's.
struct Grant {
  Packet* packet = nullptr;
  PortId in_port = 0;
  VcId in_vc = 0;
  bool frees_input = true;  // the last copy: the input buffer space is free at tail_out
  PortId out_port = 0;
  VcId out_vc = 0;
  Cycle start = 0;     // cycle the head starts on the output channel
  Cycle tail_out = 0;  // cycle the tail has left this router
};

// What a copy from input `in` asks of an output: `length` cycles on its channel and `input`
// cycles of the crossbar input from `earliest` on, and room for `need` free flits in VC `vc` of
// the buffer behind it, where it will hold `flits`. Its tail has left `tail` cycles after its
// start. All three are `length`, but an LT train moves at the pace of the credit loop: its tail
// leaves later, and its copies share the crossbar input at that pace.
struct OutputRequest {
  PortId in = 0;
  PortId out = 0;
  VcId vc = 0;
  int flits = 0;
  int need = 0;
  Cycle earliest = 0;
  Cycle length = 0;
  Cycle input = 0;
  Cycle tail = 0;
  int train = 1;  // the packets it stands for (Packet::train)
};

// A timing shell's part in RouterCore::issue(), a template parameter so that a loosely-timed hop
// pays no indirect call. `book(request)` reserves the output from the first cycle at or after
// `request.earliest` it can and returns that cycle; it may lengthen `request.tail` (an LT train,
// paced by the credit loop) (AT: allocation found the output free and the credits there now;
// LT: the first gap in its calendar at which the buffer behind has room).
// `hand_on(grant)` carries the grant out: forwards the copy or gives it to the PEGroup (AT:
// after allocation; LT: at once).
template <typename T>
concept IssueShell = requires(T& shell, OutputRequest& request, const Grant& grant) {
  { shell.book(request) } -> std::same_as<Cycle>;
  shell.hand_on(grant);
};

// What every router of one machine reads and none changes. A hop reads it, so one copy stays in
// cache for all routers; a copy per router would be another cache miss per hop on a large torus.
struct RouterShared {
  // `seed`: the run's, for a fat tree's random up paths.
  RouterShared(const Topology& topology, const FabricParams& params, std::uint64_t seed);

  const Topology& topology;
  NetworkRouting routing;
  int vcs;           // point-to-point VCs per port
  int buffer_flits;  // per point-to-point VC
  int pipeline;
  CollectiveParams coll;
  ChannelTiming link, local, internal;
  bool wormhole;
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
  // the local port (injection in, ejection out), then the internal PEGroup port. On a torus
  // input port d holds packets travelling in direction d. VCs per port: router.vcs point-to-point
  // VCs, then VCUp, VCDown. `collective` may be null (no trees); `pool` makes the copies of
  // multi-destination packets.
  RouterCore(NodeId id, const RouterShared& shared, std::unique_ptr<CollectiveUnit> collective,
             PacketPool& pool);

  NodeId id() const { return m_id; }
  const RouterShared& shared() const { return m_shared; }
  PortId local_port() const { return m_local; }
  PortId pegroup_port() const { return static_cast<PortId>(m_local + 1); }
  int port_count() const { return m_local + 2; }
  int vc_count() const { return m_vc_count; }  // per port: point-to-point VCs, VCUp, VCDown
  VcId vc_up() const { return static_cast<VcId>(m_shared.vcs); }
  VcId vc_down() const { return static_cast<VcId>(m_shared.vcs + 1); }
  const ChannelTiming& timing(PortId port) const {
    if (port == m_local) return m_shared.local;
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
    if (vc >= m_shared.vcs) return m_shared.coll.buffer_flits;
    return out == m_local ? m_shared.local_buffer_flits : m_shared.buffer_flits;
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

  // A link failing during the run ([faults] fail_at_cycle, FaultParams): from that cycle on no
  // packet starts on it at either end. One whose transmission began before it finishes (the
  // link completes what it has accepted, as a link-level retransmission would make sure of);
  // one that would start on it later is diverted here: it leaves its input buffer through the
  // crossbar into the internal port (the PEGroup's, serialized as any copy to it; its credits
  // go back upstream as for any grant), and comes back out of that port as a packet injected at
  // this router, routed around the failed links by FaultRouting (a detour's two legs, or the
  // direct path when intact), as a PEGroup send of point-to-point traffic is. At most once per
  // packet: a route chosen from the failure cycle on crosses no failed link.
  //
  // Why this cannot deadlock. Before the failure the routes are direction order's (fail_at_cycle
  // cannot combine with failed nodes, so nothing else has failed). After it every packet in a
  // link VC follows either what is left of such a route or the legs FaultRouting gives, each a
  // direction-order path on its own leg's VCs: the leg argument of fault_routing.h holds as it
  // is. A packet that meets a failed link never waits on it: it goes into the internal port,
  // which takes it whatever it holds (a sink, as ejection is), and enters the network from there
  // as an injection does (class 0, the bubble), holding no link buffer while it waits. So no
  // cycle of waiting passes through a diverted packet, and the leg networks drain as before.
  // The internal port's queue is unbounded in the model: it holds at most the packets that were
  // routed onto the failed links before the failure.
  //
  // Whether `route` asks for a link that fails during the run; and one that has failed by `at`.
  bool toward_failing(const Route& route) const { return (route.outs & m_failing) != 0; }
  bool diverts(const Route& route, Cycle at) const {
    return toward_failing(route) && at >= m_fail_at;
  }
  // The route of a packet diverted into the internal port.
  Route diverted(const Packet& packet) const {
    return {bit(pegroup_port()), 0, packet.wire_flits()};
  }
  // Packets diverted around a failed link here.
  std::uint64_t rerouted() const { return m_rerouted; }

  // A packet announced by the upstream; its head_at/tail_at say when it is in this router's
  // buffer (input `port`, VC header.vc). Returns the cycle to wake for it, or kNever when a
  // packet ahead of it in the same VC already holds a wake-up.
  Cycle receive(PortId port, Packet& packet);

  // `flits` credits for output (port, vc), usable from cycle `at`. Returns true when a packet is
  // waiting for them, i.e. the shell should wake at `at`.
  bool return_credits(PortId port, VcId vc, int flits, Cycle at);

  // Issues one copy of `packet` (held in input `in`, VC `in_vc`) to output `out`, one of
  // `route.outs`, and clears it there: the copy (the packet itself for its last output), its VC
  // on the output, and its time there, booked by the shell no earlier than `input_free`, when
  // the crossbar input is free; the input then carries it until it is out (`input_free` becomes
  // that cycle). The shell then hands it on. Returns the cycle its tail has left. RouterAt
  // issues through allocate(), RouterLt every output of a packet in turn.
  template <IssueShell Shell>
  Cycle issue(Shell& shell, PortId in, VcId in_vc, Packet& packet, Route& route, PortId out,
              Cycle& input_free);

  // Switch allocation at cycle `now`: appends the packets that start on an output now.
  void allocate(Cycle now, std::vector<Grant>& grants);
  // Hands the packets granted to the PEGroup port over to the PEGroup and queues what it sends.
  // Called after the shell has carried out the grants (the upstream reads a packet's VC from it
  // when its credits return, and the PEGroup may recycle the packet).
  void run_pegroup();
  // The PEGroup takes the copy `grant` gave it, wholly in when its tail has left the crossbar;
  // appends what it sends.
  void pegroup_accept(const Grant& grant, std::vector<CollectiveSend>& sends);
  // The route of a PEGroup send from the internal port, the send at the crossbar (head and tail)
  // from its ready cycle; a send with nowhere to go (Down at a node without children) is
  // recycled and gets no outputs.
  Route route_send(const CollectiveSend& send);
  CollectiveUnit* collective() const { return m_collective.get(); }

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

  // Turns tracing on for this router (AT): the signals to drive; see router_trace.h.
  void set_trace(std::unique_ptr<RouterTrace> trace);
  // Turns network statistics on for this router over [from, to) (router_stats.h); `buffers`:
  // the shell models input buffers, whose occupancy is then kept.
  void set_stats(Cycle from, Cycle to, bool buffers);
  const RouterStats* stats() const { return m_stats.get(); }

  std::uint64_t flit_hops() const { return m_flit_hops; }  // flits sent to other routers
  std::string port_name(PortId port) const;

 private:
  static constexpr int kUnlimited = 1 << 30;  // flits: the PEGroup takes whatever it is handed
  struct Queued {
    Packet* packet = nullptr;
    Route route;
    Cycle ready = 0;
  };
  // An input VC's head asking for outputs this cycle; an adaptive one with the option it chose.
  struct Request {
    int input = 0;
    Route chosen;
  };
  struct Allocation;  // RouterAt's IssueShell

  static std::uint32_t bit(int port) { return 1U << port; }
  // An adaptive packet's route; `arrived`/`vc_class`: on the escape VC, by that port in that class.
  Route route_adaptive(const Packet& packet, std::optional<PortId> arrived, int vc_class) const;
  // The option an adaptive head takes at `now`: a free output with the most room beyond its need
  // on an adaptive VC, else the escape VC if it has room.
  std::optional<Route> choose_now(PortId in, const Queued& queued, Cycle now);
  // VCUp/VCDown's table read and head analysis for a packet from input `port` (else 0).
  Cycle routing_cycles(PortId port, const Packet& packet) const;
  Cycle first_packet_tail(PortId port, const Packet& packet) const;
  int input_index(PortId port, VcId vc) const { return port * m_vc_count + vc; }
  // The trace signals of input (port, vc) if it is a traced collective VC, else null.
  const RouterTrace::Vc* traced_vc(PortId port, VcId vc) const;
  void trace_arrival(PortId port, const Packet& packet, Cycle ready);
  void trace_grant(const Grant& grant);
  void trace_credits(PortId port, VcId vc, std::int64_t flits, Cycle at);
  void enqueue_send(const CollectiveSend& send);
  // Wormhole: adds output `out` (VC `vc`, granted at `start`) to the worm of `packet`, begun here
  // if it has none; returns the hop's index.
  int add_worm_hop(Packet& packet, PortId in, VcId in_vc, PortId out, VcId vc, Cycle start);
  // Throws: a packet was to start on a failed link (diverts() should have caught it).
  [[noreturn]] void failed_link_taken(PortId out, Cycle start) const;
  // Tells the statistics of a copy issued from input (in, in_vc) to `out`, before it is handed on
  // (an LT hand-on moves the packet's cycles on to the next router).
  void record_issue(PortId in, VcId in_vc, PortId out, bool last, const Packet& packet,
                    const Route& route, const OutputRequest& request, Cycle start, Cycle tail_out);

  // What a loosely-timed hop touches comes first: 40 bytes, which RouterLt keeps in one line.
  NodeId m_id;
  PortId m_local;
  const RouterShared& m_shared;
  std::unique_ptr<CollectiveUnit> m_collective;
  PacketPool* m_pool;
  std::uint64_t m_flit_hops = 0;
  int m_vc_count;                        // all VCs per port: point-to-point + VCUp + VCDown
  std::unique_ptr<RouterStats> m_stats;  // null: statistics off (one test per hop)

  // Input VCs holding packets, so that allocation visits only those (a router has up to 180).
  class InputSet {
   public:
    void set(int i) { m_words[i / 64] |= std::uint64_t{1} << (i % 64); }
    void clear(int i) { m_words[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
    template <typename Fn>
    void for_each(Fn fn) const {
      for (int w = 0; w < kWords; ++w) {
        for (std::uint64_t bits = m_words[w]; bits; bits &= bits - 1) {
          fn(w * 64 + std::countr_zero(bits));
        }
      }
    }

   private:
    static constexpr int kWords = ((kMaxLinkPorts + 2) * (kMaxVcs + 2) + 63) / 64;
    std::uint64_t m_words[kWords] = {};
  };

  std::vector<RingQueue<Queued>> m_inputs;  // [port * vc_count + vc]
  InputSet m_busy_inputs;
  std::vector<Cycle> m_input_busy;       // [port]: crossbar input free from this cycle
  std::vector<Cycle> m_output_busy;      // [port]: output channel free from this cycle
  std::vector<CreditCounter> m_credits;  // [port * vc_count + vc]: free flits downstream
  std::vector<int> m_round_robin;        // [port]: last input index granted this output
  std::vector<Request> m_requests;       // scratch: input VCs that may start this cycle
  std::vector<Grant> m_to_pegroup;       // granted to the PEGroup, not yet handed over
  std::vector<CollectiveSend> m_sends;   // scratch: what the PEGroup sends
  std::unique_ptr<RouterTrace> m_trace;  // null: tracing off
  WormOwner* m_worm_owner = nullptr;
  std::uint32_t m_failing = 0;  // link ports whose link fails at m_fail_at
  Cycle m_fail_at = kNever;     // kNever: none fails during the run
  std::uint64_t m_rerouted = 0;
};

template <IssueShell Shell>
Cycle RouterCore::issue(Shell& shell, PortId in, VcId in_vc, Packet& packet, Route& route,
                        PortId out, Cycle& input_free) {
  // One bit left (no std::popcount: without -mpopcnt it is a library call on every hop).
  const bool last = (route.outs & (route.outs - 1)) == 0;
  OutputRequest request = request_for(in, out, packet, route, input_free);
  Packet* p = copy_for(packet, last);
  route.outs &= ~bit(out);
  const VcId vc = request.vc;
  const Cycle start = shell.book(request);
  if (start >= m_fail_at && (m_failing & bit(out))) [[unlikely]] {
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
    if (out == m_local) p->worm = 0;  // the endpoint takes it whole
  }
  if (m_stats) [[unlikely]] {
    record_issue(in, in_vc, out, last, packet, route, request, start, tail_out);
  }
  shell.hand_on(Grant{p, in, in_vc, last, out, vc, start, tail_out});
  if (worm_id != 0) [[unlikely]] {
    Worm& w = m_shared.worms->at(worm_id);
    if (tail_out == kNever) tail_out = w.tail(worm_hop);
    if (w.finished()) m_shared.worms->release(worm_id);
  }
  return tail_out;
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
    for (int vc = m_shared.routing.first_adaptive_vc(); vc < m_shared.vcs; ++vc) {
      fn(Option{out, static_cast<VcId>(vc), flits});
    }
  }
  fn(Option{route.escape, route.p2p_vc, route.need});
}

inline OutputRequest RouterCore::request_for(PortId in, PortId out, const Packet& packet,
                                             const Route& route, Cycle earliest) const {
  const int flits = packet.wire_flits();
  const Cycle length = timing(out).serialization(flits);
  return {in,
          out,
          out_vc(out, packet, route),
          flits,
          need(in, out, packet, route),
          earliest,
          length,
          length,
          length,
          static_cast<int>(packet.train)};
}

// Inline: RouterCore::issue, a template both shells instantiate, asks it for every copy.
inline VcId RouterCore::out_vc(PortId out, const Packet& p, const Route& r) const {
  if (out == pegroup_port()) return 0;
  if (!is_collective(p.header.kind)) return r.p2p_vc;
  if (out == m_local) return vc_up();  // the endpoint's collective buffer
  // Up-bound collective packets use VCUp, down-bound ones VCDown.
  const bool up =
      p.header.kind == PacketKind::Reduce || p.header.kind == PacketKind::BroadcastRequest;
  return up ? vc_up() : vc_down();
}

// VCUp and VCDown inherit the deterministic VC's bubble flow control: overlapping trees chain
// their ring segments into whole rings, so a collective packet entering a ring (from another
// direction, the processor or the PEGroup) needs room for one more largest packet.
inline int RouterCore::need(PortId in, PortId out, const Packet& p, const Route& r) const {
  if (!is_collective(p.header.kind) || out >= m_local || out == in) return r.need;
  return r.need + kMaxPacketFlits;
}

}  // namespace angara
