#include "models/router/at_switch.h"

#include <fmt/format.h>

#include <algorithm>

namespace angara {

AtSwitch::AtSwitch(RouterCore& core) : m_core(core), m_vc_count(core.vc_count()) {
  const auto ports = static_cast<std::size_t>(core.port_count());
  m_inputs.resize(ports * m_vc_count);
  m_input_busy.assign(ports, 0);
  m_output_busy.assign(ports, 0);
  for (int i = 0; i < static_cast<int>(ports) * m_vc_count; ++i) {
    m_credits.emplace_back(core.buffer_flits(port_of(i), static_cast<VcId>(i % m_vc_count)));
  }
  m_round_robin.assign(ports, static_cast<int>(ports * m_vc_count) - 1);
}

Cycle AtSwitch::receive(PortId port, Packet& packet) {
  const int i = index(port, packet.header.vc);
  auto& fifo = m_inputs[i];
  const Route r = m_core.route(port, packet);
  const Cycle ready = m_core.ready_at(port, packet, r);
  fifo.push_back({&packet, r, driven(port, packet.header.vc) ? kNever : ready});
  m_busy_inputs.set(i);
  if (m_trace) {
    m_trace->arrival(static_cast<std::size_t>(i), packet, ready, !m_core.is_local(port),
                     m_core.shared().coll.table_cycles);
  }
  return fifo.size() == 1 && fifo.front().ready != kNever ? fifo.front().ready : kNever;
}

bool AtSwitch::return_credits(PortId port, VcId vc, int flits, Cycle at) {
  const int i = index(port, vc);
  if (m_trace) m_trace->credits_change(static_cast<std::size_t>(i), flits, at);
  return m_credits[i].add(at, flits);
}

// Allocation has found the output and the crossbar input free and the output VC's credits
// enough, so a grant starts now; it spends the credits and waits in `grants` for RouterAt (and,
// to the PEGroup, for run_pegroup()).
struct AtSwitch::Allocation {
  AtSwitch& sw;
  std::vector<Grant>& grants;
  Cycle now;

  Cycle book(OutputRequest& r) {
    sw.m_output_busy[r.out] = now + r.length;
    return now;
  }
  void hand_on(const Grant& g) {
    const int out = sw.index(g.out_port, g.out_vc);
    sw.m_credits[out].consume(g.packet->wire_flits());
    if (sw.m_rings) sw.count_ring(g, now);
    if (g.out_port == sw.m_core.pegroup_port()) sw.m_to_pegroup.push_back(g);
    grants.push_back(g);
    if (sw.m_trace) {
      sw.m_trace->grant(g, static_cast<std::size_t>(out),
                        static_cast<std::size_t>(sw.index(g.in_port, g.in_vc)));
    }
  }
};

void AtSwitch::allocate(Cycle now, std::vector<Grant>& grants) {
  CollectiveUnit* collective = m_core.collective();
  if (collective && collective->next_timer() <= now) {
    m_sends.clear();
    collective->on_timer(now, m_sends);
    for (const auto& s : m_sends) enqueue_send(s);
  }
  // Requests: the head of every input VC that is ready and whose crossbar input is free.
  m_requests.clear();
  m_busy_inputs.for_each([&](int i) {
    const PortId port = port_of(i);
    Queued& q = m_inputs[i].front();
    if (m_core.diverts(q.route, now)) [[unlikely]] {
      q.route = m_core.diverted(*q.packet);
      q.ready = std::max(q.ready, m_core.ready_at(port, *q.packet, q.route));
    }
    if (driven(port, static_cast<VcId>(i % m_vc_count))) {
      const std::uint32_t outs = m_vcup_driver->request(port, *q.packet, q.route.outs, now);
      if (outs == 0) return;
      q.route.outs = outs;
      q.ready = std::min(q.ready, now);
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
  for (int o = 0; o < m_core.port_count(); ++o) {
    const auto out = static_cast<PortId>(o);
    if (m_output_busy[out] > now) continue;
    Request* best = nullptr;
    int best_rank = total;
    for (Request& request : m_requests) {
      const int i = request.input;
      const PortId port = port_of(i);
      const Queued& q = m_inputs[i].front();
      const Route& r = q.route.adaptive ? request.chosen : q.route;
      if (!(r.outs & (1U << out)) || m_input_busy[port] > now) continue;
      const VcId vc = m_core.out_vc(out, *q.packet, r);
      if (m_credits[index(out, vc)].at(now) < m_core.need(port, out, *q.packet, r) ||
          ring_full(port, static_cast<VcId>(i % m_vc_count), out, vc, *q.packet)) {
        continue;
      }
      const int rank = (i - m_round_robin[out] - 1 + total) % total;
      if (rank < best_rank) best = &request, best_rank = rank;
    }
    if (best == nullptr) continue;
    const int i = best->input;
    const PortId port = port_of(i);
    Queued& q = m_inputs[i].front();
    Route& r = q.route.adaptive ? best->chosen : q.route;
    m_round_robin[out] = i;
    // From the cycle the packet could have gone, for its contention count (RouterCore): its
    // pipeline done and the crossbar input free.
    Cycle input_free = std::max(q.ready, m_input_busy[port]);
    m_core.issue(shell, port, static_cast<VcId>(i % m_vc_count), *q.packet, r, out, input_free);
    m_input_busy[port] = input_free;
    if (r.outs == 0) {  // the last copy has gone
      m_inputs[i].pop_front();
      if (m_inputs[i].empty()) m_busy_inputs.clear(i);
    }
  }
}

std::optional<AtSwitch::Route> AtSwitch::choose_now(PortId in, const Queued& q, Cycle now) {
  std::optional<Option> best;
  int best_room = -1;
  const int first_adaptive = m_core.shared().vcs.first_adaptive;
  m_core.for_each_option(in, *q.packet, q.route, [&](const Option& o) {
    if (m_output_busy[o.out] > now) return;
    const int room = m_credits[index(o.out, o.vc)].at(now) - o.need;
    const bool escape = o.vc < first_adaptive;
    if (room < 0 || (best && (escape || room <= best_room))) return;
    best = o;
    best_room = room;
  });
  if (!best) return std::nullopt;
  return RouterCore::only(*best);
}

int AtSwitch::ring_entered(PortId in, VcId in_vc, PortId out, VcId vc, const Packet& p) const {
  // Going on along a ring keeps its direction and VC (a detour's second leg takes VCs of its own).
  if (!m_rings || !m_core.is_link(out) || (in == out && in_vc == vc) ||
      is_collective(p.header.kind)) {
    return -1;
  }
  return m_rings->ring(m_core.id(), out, vc);
}

bool AtSwitch::ring_refuses(PortId in, VcId in_vc, PortId out, VcId vc, const Packet& p) {
  const int ring = ring_entered(in, in_vc, out, vc, p);
  if (ring < 0 || m_rings->admits(ring, p.wire_flits())) return false;
  m_rings->wait(ring, &m_ring_wake);
  return true;
}

void AtSwitch::count_ring(const Grant& g, Cycle now) {
  const Packet& p = *g.packet;
  if (is_collective(p.header.kind)) return;
  const int entered = ring_entered(g.in_port, g.in_vc, g.out_port, g.out_vc, p);
  if (entered >= 0) m_rings->enter(entered, p.wire_flits());
  // Its head takes another output or VC: it leaves the ring it came by.
  if (m_core.is_link(g.in_port) && (g.in_port != g.out_port || g.in_vc != g.out_vc)) {
    m_rings->leave(m_rings->ring(m_core.id(), g.in_port, g.in_vc), p.wire_flits(), now);
  }
}

void AtSwitch::run_pegroup() {
  for (const Grant& g : m_to_pegroup) {
    m_sends.clear();
    m_core.pegroup_accept(g, m_sends);
    for (const auto& s : m_sends) enqueue_send(s);
  }
  m_to_pegroup.clear();
}

void AtSwitch::enqueue_send(const CollectiveSend& s) {
  const Route r = m_core.route_send(s);
  if (r.outs == 0) return;
  const int i = index(m_core.pegroup_port(), 0);
  m_inputs[i].push_back({s.packet, r, s.ready});
  m_busy_inputs.set(i);
}

Cycle AtSwitch::next_wakeup(Cycle now) {
  const CollectiveUnit* collective = m_core.collective();
  Cycle next = collective ? std::max(collective->next_timer(), now + 1) : kNever;
  m_busy_inputs.for_each([&](int i) {
    const PortId port = port_of(i);
    const Queued& q = m_inputs[i].front();
    if (q.ready == kNever) return;  // a driven VCUp's packet: the driver wakes the router
    // A packet for a link about to fail is diverted when it fails, if it has not gone by then.
    if (m_core.toward_failing(q.route)) {
      next = std::min(next, std::max(m_core.failing().at(), now + 1));
    }
    const Cycle t = std::max(q.ready, m_input_busy[port]);
    Cycle earliest = kNever;
    m_core.for_each_option(port, *q.packet, q.route, [&](const Option& o) {
      // A full ring wakes the router when a packet leaves it.
      if (ring_full(port, static_cast<VcId>(i % m_vc_count), o.out, o.vc, *q.packet)) return;
      auto& credits = m_credits[index(o.out, o.vc)];
      const Cycle c = credits.when({std::max(t, m_output_busy[o.out]), o.need});
      if (c == kNever) credits.mark_waited_on();  // the credit return will wake us
      earliest = std::min(earliest, c);
    });
    if (earliest != kNever) next = std::min(next, std::max(earliest, now + 1));
  });
  return next;
}

void AtSwitch::set_trace(std::unique_ptr<RouterTrace> trace) {
  m_trace = std::move(trace);
  for (int i = 0; i < static_cast<int>(m_trace->credits.size()); ++i) {
    if (m_trace->credits[i] >= 0)
      m_trace->tracer->change(m_trace->credits[i], 0, m_credits[i].available());
  }
}

std::optional<AtSwitch::Blocked> AtSwitch::oldest_blocked(Cycle now) const {
  std::optional<Blocked> oldest;
  const Topology& topology = m_core.shared().topology;
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const Queued& q = m_inputs[i].front();
    if (q.ready > now || (oldest && oldest->since <= q.ready)) continue;
    const PortId port = port_of(i);
    std::optional<Option> first;
    m_core.for_each_option(port, *q.packet, q.route, [&](const Option& o) {
      if (!first) first = o;
    });
    const Option o = *first;
    const Packet& p = *q.packet;
    // A worm counts all its flits against the buffer it entered until its tail has left it.
    const int free = m_credits[index(o.out, o.vc)].available();
    std::string held = free < 0 ? " (a packet longer than the buffer holds it)" : "";
    const int ring = ring_entered(port, static_cast<VcId>(i % m_vc_count), o.out, o.vc, *q.packet);
    if (ring >= 0 && !m_rings->admits(ring, q.packet->wire_flits())) {
      held += fmt::format(" and a ring whose packets count {} of its buffers (ring_budget.h)",
                          m_rings->counted(ring));
    }
    oldest = Blocked{
        q.ready,
        fmt::format("router {} input port {} VC {}: packet #{} ({} -> {}, {} flits) waits since "
                    "cycle {} for output {} VC {}, which has {} free flits of the {} it needs{}",
                    topology.format(m_core.id()), m_core.port_name(port), i % m_vc_count,
                    p.header.high_word, topology.node_name(p.header.src),
                    topology.node_name(p.header.dst), p.wire_flits(), q.ready,
                    m_core.port_name(o.out), o.vc, std::max(free, 0), o.need, held)};
  }
  return oldest;
}

}  // namespace angara
