#include "models/router/router_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace angara {

RouterShared::RouterShared(const Topology& t, const FabricParams& params, std::uint64_t seed)
    : topology(t),
      routing(t, params.router, seed, params.faults),
      vcs(routing.vc_layout()),
      buffer_flits(params.router.buffer_flits),
      pipeline(params.router.pipeline_cycles),
      coll(params.collective),
      link(params.link, params.router.clock_mhz),
      local(params.endpoint, params.router.clock_mhz),
      // The crossbar to and from the PEGroup moves one flit per cycle, with no wire.
      internal({kFlitBits * params.router.clock_mhz / 1000.0, 0.0}, params.router.clock_mhz),
      wormhole(params.router.wormhole()),
      worm_bubble(wormhole && t.torus() && params.router.deadlock == DeadlockScheme::Bubble),
      local_buffer_flits(params.router.local_buffer_flits()),
      worms(wormhole ? std::make_unique<WormPool>() : nullptr) {
  for (int flits = buffer_flits + 1; wormhole && flits <= kMaxPacketFlits; ++flits) {
    worm_holds[flits] = Worm::least_hold(flits, buffer_flits, link, pipeline);
  }
}

RouterCore::RouterCore(NodeId id, const RouterShared& shared,
                       std::unique_ptr<CollectiveUnit> collective, PacketPool& pool)
    : m_id(id),
      m_first_local(static_cast<PortId>(shared.topology.ports(id))),
      m_pegroup(static_cast<PortId>(m_first_local + shared.topology.locals(id))),
      m_shared(shared),
      m_collective(std::move(collective)),
      m_pool(&pool),
      m_vc_count(shared.vcs.per_port()),
      m_failing(id, shared.topology.ports(id), shared.routing) {}

RouterCore::Route RouterCore::route(PortId port, Packet& packet) {
  if (is_collective(packet.header.kind)) {
    if (!m_collective) {
      throw std::logic_error(fmt::format("router {}: collective packet but no collective subnet",
                                         m_shared.topology.format(m_id)));
    }
    const CollectiveRoute c = m_collective->arrival(packet, is_local(port));
    return {c.dirs | (c.pe ? bit(m_first_local) : 0) | (c.pegroup ? bit(pegroup_port()) : 0), 0,
            packet.wire_flits()};
  }
  const VcLayout& vcs = m_shared.vcs;
  std::optional<PortId> arrived;
  if (is_link(port)) arrived = port;
  if (m_shared.routing.adaptive()) {
    // On the escape VC a packet goes on along its ring as it came (its class, no bubble); from
    // an adaptive VC or the processor it enters the escape network here.
    const bool escape = arrived && packet.header.vc < vcs.first_adaptive;
    if (!escape) arrived.reset();
    return route_adaptive(packet, arrived, escape ? vcs.class_of(packet.header.vc) : 0);
  }
  // A packet may come from the processor on either leg's VC, but a detour starts on the first.
  int leg = vcs.leg_of(packet.header.vc);
  if (!arrived) {
    // From the processor, around what has failed by the head's arrival; from the internal port
    // (a packet diverted around a link failing during the run, a PEGroup send), around it all.
    packet.via =
        m_shared.routing.via(m_id, packet.header.dst, is_local(port) ? packet.head_at : kNever);
    if (packet.via != packet.header.dst) leg = 0;
  }
  return route_p2p(m_shared.routing.route(m_id, arrived, packet.header,
                                          vcs.class_of(packet.header.vc), leg, packet.via),
                   packet);
}

RouterCore::Route RouterCore::route_p2p(const RouteStep& step, const Packet& packet) const {
  // Wormhole: a packet that fits in the next buffer goes as with cut-through; a longer one (a
  // worm) takes the VC only when its buffer is empty: the worm's flits then follow one another
  // into it on credits (worm.h), and it takes nothing else until the worm's tail has left it.
  // Why wormhole cannot deadlock with the dateline: a blocked worm holds the VCs its flits are in
  // (a chain along its route) and waits only for the next VC of that route, so every wait is an
  // edge of the channel-dependency graph of direction-order routes, which the dateline keeps
  // acyclic (routing/direction_order_routing.h; routing_test checks the graph, worm_test that
  // wormhole takes the same VCs). The channels and crossbar inputs are not held while it waits
  // (they carry its flits for their serialization time), so they add no edge. Hence some worm
  // at the end of every chain of waits can always move (Dally and Seitz). Under the bubble a
  // ring keeps an empty buffer instead of a free packet's room, which buffers shorter than a
  // packet do not have: a packet takes a ring's VC only when its buffer is empty (the whole
  // buffer's credits), and enters a ring only as ring_budget.h admits; the argument is there.
  // Around failures each leg's VCs are dateline VCs of their own, as with cut-through.
  const int need = m_shared.routing.required_credits(step, packet.wire_flits());
  const bool link = !step.eject;
  return {bit(link ? step.port : m_first_local + step.port),
          m_shared.vcs.vc(m_shared.vcs.set_base(packet.header.vc), step.leg, step.vc_class),
          !link || !m_shared.wormhole ? need
          : m_shared.worm_bubble      ? m_shared.buffer_flits
                                      : std::min(need, m_shared.buffer_flits)};
}

bool RouterCore::worm(PortId out, const Packet& p) const {
  return is_link(out) && !is_collective(p.header.kind) && p.train == 1 &&
         p.wire_flits() > buffer_flits(out, 0);
}

int RouterCore::add_worm_hop(Packet& p, PortId in, VcId in_vc, PortId out, VcId vc, Cycle start) {
  if (p.worm == 0) {
    p.worm = m_shared.worms->acquire();
    m_shared.worms->at(p.worm).begin(p.wire_flits(), p.head_at, p.tail_at, timing(in));
  }
  const int window = is_local(out) ? 0 : buffer_flits(out, vc);
  return m_shared.worms->at(p.worm).add_hop(
      {start, &timing(out), window, in, in_vc, m_worm_owner, 0, false, {}});
}

// The escape step: on along the ring the packet arrived by on the escape VC (`arrived`, in class
// `vc_class`), else as for a packet entering the escape network here (the bubble applies).
RouterCore::Route RouterCore::route_adaptive(const Packet& packet, std::optional<PortId> arrived,
                                             int vc_class) const {
  const RouteStep escape = m_shared.routing.route(m_id, arrived, packet.header, vc_class);
  if (escape.eject) return route_p2p(escape, packet);
  return {m_shared.routing.adaptive_ports(m_id, packet.header.dst),
          static_cast<VcId>(escape.vc_class),
          m_shared.routing.required_credits(escape, packet.wire_flits()), true, escape.port};
}

Cycle RouterCore::ready_at(PortId port, const Packet& p, const Route& r) const {
  // An LT train goes as its first packet would; its tail waits for its own (tail_floor()).
  const Cycle first_tail = p.train == 1 ? p.tail_at : first_packet_tail(port, p);
  if (is_collective(p.header.kind) && port != pegroup_port()) {
    // VCUp/VCDown store the whole packet, then read the table and analyse the head; from the
    // processor a packet goes into the PEGroup FIFO as soon as it is wholly in.
    return first_tail + routing_cycles(port, p);
  }
  if (port == pegroup_port()) return p.head_at;  // a PEGroup send: ready when the PEGroup says
  // A worm's flits are timed flit by flit (worm.h): its head goes after the pipeline.
  if (p.worm != 0) return p.head_at + m_shared.pipeline;
  // The tail may not leave before it has arrived: start + serialization >= tail_at.
  const auto out = static_cast<PortId>(std::countr_zero(r.outs));
  const Cycle out_ser = timing(out).serialization(p.packet_flits());
  const Cycle tail_bound = first_tail > out_ser ? first_tail - out_ser : 0;
  return std::max(p.head_at + m_shared.pipeline, tail_bound);
}

Cycle RouterCore::routing_cycles(PortId port, const Packet& p) const {
  if (!is_collective(p.header.kind) || !is_link(port)) return 0;
  return collective_routing_cycles();
}

// A train's packets come in one after another at the upstream's pace: the first is wholly in
// one packet's serialization after its head.
Cycle RouterCore::first_packet_tail(PortId port, const Packet& p) const {
  const ChannelTiming& t = timing(port);
  return std::min(p.tail_at, p.head_at + t.serialization(p.packet_flits()) - t.serialization(1));
}

Cycle RouterCore::tail_floor(PortId in, PortId out, const Packet& p) const {
  if (in == pegroup_port()) return 0;
  const Cycle tail = p.tail_at + routing_cycles(in, p);
  if (!is_collective(p.header.kind) || is_local(in)) return tail;
  return tail + timing(out).serialization(p.packet_flits());
}

Packet* RouterCore::copy_for(Packet& packet, bool last) {
  if (last) return &packet;
  Packet* copy = m_pool->acquire();
  copy_packet(*copy, packet);
  return copy;
}

void RouterCore::pegroup_accept(const Grant& g, std::vector<CollectiveSend>& sends) {
  if (!is_collective(g.packet->header.kind)) {  // diverted around a failed link: back out
    ++m_rerouted;
    sends.push_back({g.packet, Toward::Point, g.tail_out});
    return;
  }
  m_collective->accept(g.packet, is_local(g.in_port), g.tail_out, sends);
}

RouterCore::Route RouterCore::route_send(const CollectiveSend& s) {
  Packet& p = *s.packet;
  Route r;
  switch (s.toward) {
    case Toward::Up:
    case Toward::Down:
      r = {m_collective->directions(p, s.toward), 0, p.wire_flits()};
      if (r.outs == 0) {
        m_pool->release(&p);  // no children: the packet ends here
        return r;
      }
      break;
    case Toward::Pe:
      r = {bit(m_first_local), 0, p.wire_flits()};
      break;
    case Toward::Point:
      // Point-to-point from this router, as if just injected: VC set 0, class 0.
      p.header.vc = 0;
      r = route(pegroup_port(), p);
      break;
  }
  p.head_at = p.tail_at = s.ready;
  return r;
}

Cycle RouterCore::finish_worm_issue(Cycle tail_out, std::uint32_t worm_id, int worm_hop) {
  Worm& w = m_shared.worms->at(worm_id);
  if (tail_out == kNever) tail_out = w.tail(worm_hop);
  if (w.finished()) m_shared.worms->release(worm_id);
  return tail_out;
}

void RouterCore::failed_link_taken(PortId out, Cycle start) const {
  throw std::logic_error(
      fmt::format("router {}: a packet starts on output {} at cycle {}, but its "
                  "link failed at cycle {}",
                  m_shared.topology.format(m_id), port_name(out), start, m_failing.at()));
}

void RouterCore::forward(Packet& packet, const Grant& g) {
  const ChannelTiming& t = timing(g.out_port);
  packet.header.vc = g.out_vc;
  packet.head_at = g.start + t.latency + t.serialization(1);
  packet.tail_at = g.tail_out == kNever ? kNever : g.tail_out + t.latency;  // a worm: later
  if (is_link(g.out_port)) {
    ++packet.hops;
    m_flit_hops += static_cast<std::uint64_t>(packet.wire_flits());
  }
}

void RouterCore::set_stats(Cycle from, Cycle to, bool buffers) {
  m_stats = std::make_unique<RouterStats>(port_count(), m_vc_count, from, to, buffers);
}

void RouterCore::record_issue(PortId in, VcId in_vc, PortId out, bool last, const Packet& packet,
                              const Route& route, const OutputRequest& request, Cycle start,
                              Cycle tail_out) {
  // The cycle the pipeline let this copy start: ready_at() of its route to `out` alone (issue()
  // has taken `out` from the route already).
  Route to_out = route;
  to_out.outs = bit(out);
  m_stats->issued(in, in_vc, last, out, request.train, request.flits, packet.head_at,
                  ready_at(in, packet, to_out), start, request.length, tail_out);
}

std::string RouterCore::port_name(PortId port) const {
  if (is_local(port)) {
    return m_pegroup == m_first_local + 1 ? "local" : fmt::format("host {}", port - m_first_local);
  }
  return port == pegroup_port() ? "pegroup" : m_shared.topology.port_name(m_id, port);
}

}  // namespace angara
