#include "models/router/router_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace angara {

RouterShared::RouterShared(const Topology& t, const FabricParams& params, std::uint64_t seed)
    : topology(t),
      routing(t, params.router, seed, params.faults),
      vcs(params.router.vcs),
      buffer_flits(params.router.buffer_flits),
      pipeline(params.router.pipeline_cycles),
      coll(params.collective),
      link(params.link, params.router.clock_mhz),
      local(params.endpoint, params.router.clock_mhz),
      // The crossbar to and from the PEGroup moves one flit per cycle, with no wire.
      internal({kFlitBits * params.router.clock_mhz / 1000.0, 0.0}, params.router.clock_mhz),
      wormhole(params.router.wormhole()),
      local_buffer_flits(params.router.local_buffer_flits()),
      worms(wormhole ? std::make_unique<WormPool>() : nullptr) {
  for (int flits = buffer_flits + 1; wormhole && flits <= kMaxPacketFlits; ++flits) {
    worm_holds[flits] = Worm::least_hold(flits, buffer_flits, link, pipeline);
  }
}

RouterCore::RouterCore(NodeId id, const RouterShared& shared,
                       std::unique_ptr<CollectiveUnit> collective, PacketPool& pool)
    : m_id(id),
      m_local(static_cast<PortId>(shared.topology.ports(id))),
      m_shared(shared),
      m_collective(std::move(collective)),
      m_pool(&pool),
      m_vc_count(shared.vcs + 2) {
  const auto ports = static_cast<std::size_t>(port_count());
  m_inputs.resize(ports * m_vc_count);
  m_input_busy.assign(ports, 0);
  m_output_busy.assign(ports, 0);
  for (int i = 0; i < static_cast<int>(ports) * m_vc_count; ++i) {
    m_credits.emplace_back(
        buffer_flits(static_cast<PortId>(i / m_vc_count), static_cast<VcId>(i % m_vc_count)));
  }
  m_round_robin.assign(ports, static_cast<int>(ports * m_vc_count) - 1);
  // Links failing during the run (from the start, routes never ask for them).
  const FaultMap* faults = shared.routing.faults();
  if (faults != nullptr && shared.routing.fail_at() > 0) {
    for (int p = 0; p < m_local; ++p) {
      if (faults->hop_failed(id, Direction::from_index(p))) m_failing |= bit(p);
    }
    if (m_failing != 0) m_fail_at = shared.routing.fail_at();
  }
}

RouterCore::Route RouterCore::route(PortId port, Packet& packet) {
  if (is_collective(packet.header.kind)) {
    if (!m_collective) {
      throw std::logic_error(fmt::format("router {}: collective packet but no collective subnet",
                                         m_shared.topology.format(m_id)));
    }
    const CollectiveRoute c = m_collective->arrival(packet, port == m_local);
    return {c.dirs | (c.pe ? bit(m_local) : 0) | (c.pegroup ? bit(pegroup_port()) : 0), 0,
            packet.wire_flits()};
  }
  // VC = set * classes + class, with 1 or 2 classes: mask and shift, no division per hop.
  const int class_bits = m_shared.routing.vc_classes() - 1;
  std::optional<PortId> arrived;
  if (port < m_local) arrived = port;
  if (m_shared.routing.adaptive()) {
    // On the escape VC a packet goes on along its ring as it came (its class, no bubble); from
    // an adaptive VC or the processor it enters the escape network here.
    const bool escape = arrived && packet.header.vc < m_shared.routing.first_adaptive_vc();
    if (!escape) arrived.reset();
    return route_adaptive(packet, arrived, escape ? packet.header.vc & class_bits : 0);
  }
  // Around failures a VC is set * per_set + leg * classes + class (1 or 2 of each). A packet
  // may come from the processor on either leg's VC, but a detour starts on the first leg.
  int leg = (packet.header.vc & (m_shared.routing.vcs_per_set() - 1)) >> class_bits;
  if (!arrived) {
    // From the processor, around what has failed by the head's arrival; from the internal port
    // (a packet diverted around a link failing during the run, a PEGroup send), around it all.
    packet.via =
        m_shared.routing.via(m_id, packet.header.dst, port == m_local ? packet.head_at : kNever);
    if (packet.via != packet.header.dst) leg = 0;
  }
  return route_p2p(m_shared.routing.route(m_id, arrived, packet.header,
                                          packet.header.vc & class_bits, leg, packet.via),
                   packet);
}

RouterCore::Route RouterCore::route_p2p(const RouteStep& step, const Packet& packet) const {
  const int set_base = packet.header.vc & ~(m_shared.routing.vcs_per_set() - 1);
  const int leg_base = step.leg * m_shared.routing.vc_classes();
  // Wormhole: a packet that fits in the next buffer goes as with cut-through; a longer one (a
  // worm) takes the VC only when its buffer is empty: the worm's flits then follow one another
  // into it on credits (worm.h), and it takes nothing else until the worm's tail has left it.
  // Why wormhole cannot deadlock with the dateline: a blocked worm holds the VCs its flits are in
  // (a chain along its route) and waits only for the next VC of that route, so every wait is an
  // edge of the channel-dependency graph of direction-order routes, which the dateline keeps
  // acyclic (routing/direction_order_routing.h; routing_test checks the graph, worm_test that
  // wormhole takes the same VCs). The channels and crossbar inputs are not held while it waits
  // (they carry its flits for their serialization time), so they add no edge. Hence some worm
  // at the end of every chain of waits can always move (Dally and Seitz). The bubble is refused:
  // it keeps a free packet slot per ring, which buffers shorter than a packet do not have.
  // Around failures each leg's VCs are dateline VCs of their own, as with cut-through.
  const int need = m_shared.routing.required_credits(step, packet.wire_flits());
  return {bit(step.eject ? m_local : step.port),
          static_cast<VcId>(set_base + leg_base + step.vc_class),
          m_shared.wormhole && !step.eject ? std::min(need, m_shared.buffer_flits) : need};
}

bool RouterCore::worm(PortId out, const Packet& p) const {
  return out < m_local && !is_collective(p.header.kind) && p.train == 1 &&
         p.wire_flits() > buffer_flits(out, 0);
}

int RouterCore::add_worm_hop(Packet& p, PortId in, VcId in_vc, PortId out, VcId vc, Cycle start) {
  if (p.worm == 0) {
    p.worm = m_shared.worms->acquire();
    m_shared.worms->at(p.worm).begin(p.wire_flits(), p.head_at, p.tail_at, timing(in));
  }
  const int window = out == m_local ? 0 : buffer_flits(out, vc);
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
  if (!is_collective(p.header.kind) || port == m_local || port == pegroup_port()) return 0;
  return m_shared.coll.table_cycles + m_shared.coll.analysis_cycles;
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
  if (!is_collective(p.header.kind) || in == m_local) return tail;
  return tail + timing(out).serialization(p.packet_flits());
}

Packet* RouterCore::copy_for(Packet& packet, bool last) {
  if (last) return &packet;
  Packet* copy = m_pool->acquire();
  *copy = packet;
  return copy;
}

Cycle RouterCore::receive(PortId port, Packet& packet) {
  auto& fifo = m_inputs[input_index(port, packet.header.vc)];
  const Route r = route(port, packet);
  const Cycle ready = ready_at(port, packet, r);
  fifo.push_back({&packet, r, ready});
  m_busy_inputs.set(input_index(port, packet.header.vc));
  if (m_trace) trace_arrival(port, packet, ready);
  return fifo.size() == 1 ? fifo.front().ready : kNever;
}

bool RouterCore::return_credits(PortId port, VcId vc, int flits, Cycle at) {
  if (m_trace) trace_credits(port, vc, flits, at);
  return m_credits[input_index(port, vc)].add(at, flits);
}

// Allocation has found the output and the crossbar input free and the output VC's credits
// enough, so a grant starts now; it spends the credits and waits in `grants` for RouterAt (and,
// to the PEGroup, for run_pegroup()).
struct RouterCore::Allocation {
  RouterCore& core;
  std::vector<Grant>& grants;
  Cycle now;

  Cycle book(OutputRequest& r) {
    core.m_output_busy[r.out] = now + r.length;
    return now;
  }
  void hand_on(const Grant& g) {
    core.m_credits[core.input_index(g.out_port, g.out_vc)].consume(g.packet->wire_flits());
    if (g.out_port == core.pegroup_port()) core.m_to_pegroup.push_back(g);
    grants.push_back(g);
    if (core.m_trace) core.trace_grant(g);
  }
};

void RouterCore::allocate(Cycle now, std::vector<Grant>& grants) {
  if (m_collective && m_collective->next_timer() <= now) {
    m_sends.clear();
    m_collective->on_timer(now, m_sends);
    for (const auto& s : m_sends) enqueue_send(s);
  }
  // Requests: the head of every input VC that is ready and whose crossbar input is free.
  m_requests.clear();
  m_busy_inputs.for_each([&](int i) {
    const auto port = static_cast<PortId>(i / m_vc_count);
    Queued& q = m_inputs[i].front();
    if (diverts(q.route, now)) [[unlikely]] {
      q.route = diverted(*q.packet);
      q.ready = std::max(q.ready, ready_at(port, *q.packet, q.route));
    }
    if (m_input_busy[port] > now || q.ready > now) return;
    if (!q.route.adaptive) {
      m_requests.push_back({i, {}});
    } else if (const std::optional<Route> chosen = choose_now(port, q, now)) {
      m_requests.push_back({i, *chosen});
    }
  });
  // Each free output grants the requester after the one it granted last (round robin), among
  // those with the credits they need; a crossbar input carries one packet (or copy) at a time.
  const int total = static_cast<int>(m_inputs.size());
  Allocation shell{*this, grants, now};
  for (int o = 0; o < port_count(); ++o) {
    const auto out = static_cast<PortId>(o);
    if (m_output_busy[out] > now) continue;
    Request* best = nullptr;
    int best_rank = total;
    for (Request& request : m_requests) {
      const int i = request.input;
      const auto port = static_cast<PortId>(i / m_vc_count);
      const Queued& q = m_inputs[i].front();
      const Route& r = q.route.adaptive ? request.chosen : q.route;
      if (!(r.outs & bit(out)) || m_input_busy[port] > now) continue;
      if (m_credits[input_index(out, out_vc(out, *q.packet, r))].at(now) <
          need(port, out, *q.packet, r)) {
        continue;
      }
      const int rank = (i - m_round_robin[out] - 1 + total) % total;
      if (rank < best_rank) best = &request, best_rank = rank;
    }
    if (best == nullptr) continue;
    const int i = best->input;
    const auto port = static_cast<PortId>(i / m_vc_count);
    Queued& q = m_inputs[i].front();
    Route& r = q.route.adaptive ? best->chosen : q.route;
    m_round_robin[out] = i;
    issue(shell, port, static_cast<VcId>(i % m_vc_count), *q.packet, r, out, m_input_busy[port]);
    if (r.outs == 0) {  // the last copy has gone
      m_inputs[i].pop_front();
      if (m_inputs[i].empty()) m_busy_inputs.clear(i);
    }
  }
}

std::optional<RouterCore::Route> RouterCore::choose_now(PortId in, const Queued& q, Cycle now) {
  std::optional<Option> best;
  int best_room = -1;
  for_each_option(in, *q.packet, q.route, [&](const Option& o) {
    if (m_output_busy[o.out] > now) return;
    const int room = m_credits[input_index(o.out, o.vc)].at(now) - o.need;
    const bool escape = o.vc < m_shared.routing.first_adaptive_vc();
    if (room < 0 || (best && (escape || room <= best_room))) return;
    best = o;
    best_room = room;
  });
  if (!best) return std::nullopt;
  return only(*best);
}

void RouterCore::run_pegroup() {
  for (const Grant& g : m_to_pegroup) {
    m_sends.clear();
    pegroup_accept(g, m_sends);
    for (const auto& s : m_sends) enqueue_send(s);
  }
  m_to_pegroup.clear();
}

void RouterCore::pegroup_accept(const Grant& g, std::vector<CollectiveSend>& sends) {
  if (!is_collective(g.packet->header.kind)) {  // diverted around a failed link: back out
    ++m_rerouted;
    sends.push_back({g.packet, Toward::Point, g.tail_out});
    return;
  }
  m_collective->accept(g.packet, g.in_port == m_local, g.tail_out, sends);
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
      r = {bit(m_local), 0, p.wire_flits()};
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

void RouterCore::failed_link_taken(PortId out, Cycle start) const {
  throw std::logic_error(
      fmt::format("router {}: a packet starts on output {} at cycle {}, but its "
                  "link failed at cycle {}",
                  m_shared.topology.format(m_id), port_name(out), start, m_fail_at));
}

void RouterCore::enqueue_send(const CollectiveSend& s) {
  const Route r = route_send(s);
  if (r.outs == 0) return;
  m_inputs[input_index(pegroup_port(), 0)].push_back({s.packet, r, s.ready});
  m_busy_inputs.set(input_index(pegroup_port(), 0));
}

void RouterCore::forward(Packet& packet, const Grant& g) {
  const ChannelTiming& t = timing(g.out_port);
  packet.header.vc = g.out_vc;
  packet.head_at = g.start + t.latency + t.serialization(1);
  packet.tail_at = g.tail_out == kNever ? kNever : g.tail_out + t.latency;  // a worm: later
  if (g.out_port < m_local) {
    ++packet.hops;
    m_flit_hops += static_cast<std::uint64_t>(packet.wire_flits());
  }
}

Cycle RouterCore::next_wakeup(Cycle now) {
  Cycle next = m_collective ? std::max(m_collective->next_timer(), now + 1) : kNever;
  m_busy_inputs.for_each([&](int i) {
    const auto port = static_cast<PortId>(i / m_vc_count);
    const Queued& q = m_inputs[i].front();
    // A packet for a link about to fail is diverted when it fails, if it has not gone by then.
    if (toward_failing(q.route)) next = std::min(next, std::max(m_fail_at, now + 1));
    const Cycle t = std::max(q.ready, m_input_busy[port]);
    Cycle earliest = kNever;
    for_each_option(port, *q.packet, q.route, [&](const Option& o) {
      auto& credits = m_credits[input_index(o.out, o.vc)];
      const Cycle c = credits.when(std::max(t, m_output_busy[o.out]), o.need);
      if (c == kNever) credits.mark_waited_on();  // the credit return will wake us
      earliest = std::min(earliest, c);
    });
    if (earliest != kNever) next = std::min(next, std::max(earliest, now + 1));
  });
  return next;
}

void RouterCore::set_trace(std::unique_ptr<RouterTrace> trace) {
  m_trace = std::move(trace);
  for (int i = 0; i < static_cast<int>(m_trace->credits.size()); ++i) {
    if (m_trace->credits[i] >= 0)
      m_trace->tracer->change(m_trace->credits[i], 0, m_credits[i].available());
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

const RouterTrace::Vc* RouterCore::traced_vc(PortId port, VcId vc) const {
  const auto i = static_cast<std::size_t>(input_index(port, vc));
  if (i >= m_trace->inputs.size()) return nullptr;
  return m_trace->inputs[i].occupancy >= 0 ? &m_trace->inputs[i] : nullptr;
}

// A buffer holds a packet's flits from its head's arrival until its tail has left. In VCUp/VCDown
// the packet is stored whole, the table read, the head analysed, then it issues.
void RouterCore::trace_arrival(PortId port, const Packet& p, Cycle ready) {
  const RouterTrace::Vc* v = traced_vc(port, p.header.vc);
  if (!v) return;
  Tracer& t = *m_trace->tracer;
  t.add(v->occupancy, p.head_at, p.wire_flits());
  if (v->stage < 0) return;
  const auto stage = [&](VcStage s, Cycle at) { t.change(v->stage, at, static_cast<int>(s)); };
  t.change(v->packet, p.head_at, trace_id(p));
  stage(VcStage::Storing, p.head_at);
  if (port != m_local) {
    stage(VcStage::Table, p.tail_at);
    stage(VcStage::Analysis, p.tail_at + m_shared.coll.table_cycles);
  }
  stage(VcStage::Issuing, ready);
}

void RouterCore::trace_grant(const Grant& g) {
  Tracer& t = *m_trace->tracer;
  if (g.out_port < m_trace->link_valid.size() && m_trace->link_valid[g.out_port] >= 0) {
    t.change(m_trace->link_valid[g.out_port], g.start, 1);
    t.change(m_trace->link_packet[g.out_port], g.start, trace_id(*g.packet));
    t.change(m_trace->link_valid[g.out_port], g.tail_out, 0);
    t.change(m_trace->link_packet[g.out_port], g.tail_out, 0);
  }
  trace_credits(g.out_port, g.out_vc, -g.packet->wire_flits(), g.start);
  const RouterTrace::Vc* v = traced_vc(g.in_port, g.in_vc);
  if (!v || !g.frees_input) return;
  t.add(v->occupancy, g.tail_out, -g.packet->wire_flits());
  if (v->stage < 0) return;
  t.change(v->stage, g.tail_out, static_cast<int>(VcStage::Idle));
  t.change(v->packet, g.tail_out, 0);
}

void RouterCore::trace_credits(PortId port, VcId vc, std::int64_t flits, Cycle at) {
  const auto i = static_cast<std::size_t>(input_index(port, vc));
  if (i < m_trace->credits.size() && m_trace->credits[i] >= 0) {
    m_trace->tracer->add(m_trace->credits[i], at, flits);
  }
}

std::string RouterCore::port_name(PortId port) const {
  if (port == m_local) return "local";
  return port == pegroup_port() ? "pegroup" : m_shared.topology.port_name(m_id, port);
}

std::optional<RouterCore::Blocked> RouterCore::oldest_blocked(Cycle now) const {
  std::optional<Blocked> oldest;
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const Queued& q = m_inputs[i].front();
    if (q.ready > now || (oldest && oldest->since <= q.ready)) continue;
    const auto port = static_cast<PortId>(i / m_vc_count);
    std::optional<Option> first;
    for_each_option(port, *q.packet, q.route, [&](const Option& o) {
      if (!first) first = o;
    });
    const Option o = *first;
    const Packet& p = *q.packet;
    // A worm counts all its flits against the buffer it entered until its tail has left it.
    const int free = m_credits[input_index(o.out, o.vc)].available();
    const std::string held = free < 0 ? " (a packet longer than the buffer holds it)" : "";
    oldest = Blocked{
        q.ready,
        fmt::format("router {} input port {} VC {}: packet #{} ({} -> {}, {} flits) waits since "
                    "cycle {} for output {} VC {}, which has {} free flits of the {} it needs{}",
                    m_shared.topology.format(m_id), port_name(port), i % m_vc_count,
                    p.header.high_word, m_shared.topology.format(p.header.src),
                    m_shared.topology.format(p.header.dst), p.wire_flits(), q.ready,
                    port_name(o.out), o.vc, std::max(free, 0), o.need, held)};
  }
  return oldest;
}

}  // namespace angara
