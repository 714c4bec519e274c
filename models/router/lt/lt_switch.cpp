#include "models/router/lt/lt_switch.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace angara {

LtSwitch::LtSwitch(RouterCore core, const FabricClock& clock)
    : m_clock(clock), m_core(std::move(core)) {}

Cycle LtSwitch::hop(PortId port, Packet& packet, Cycle now) {
  const std::size_t base = m_fabric->chain().size();
  Cycle left = 0;
  const Onward onward = arrive(port, packet, now, left);
  return run(onward, base, left, now);
}

Cycle LtSwitch::run(Onward onward, std::size_t base, Cycle left, Cycle now) {
  std::vector<PathStep>& chain = m_fabric->chain();
  for (;;) {
    while (onward.sw != nullptr) onward = onward.sw->arrive(onward.port, *onward.packet, now, left);
    if (chain.size() == base) return left;
    const PathStep& step = chain.back();
    onward = step.sw->finish(step, left, now);  // pops it
  }
}

LtSwitch::Onward LtSwitch::finish(const PathStep& step, Cycle& left, Cycle now) {
  switch (step.kind) {
    case PathStep::Kind::Copy:
      if (step.handed) close_hold(step.port, step.vc, left);
      left = std::max(step.free, m_core.finish_issue(step.tail_out, step.worm_id, step.worm_hop));
      if (step.order) step.order->left(step.at, left);
      break;
    case PathStep::Kind::Arrived:
      if (step.order) step.order->left(step.at, left);
      // Only the PEGroup taking a packet moves the collective's timer (point-to-point packets
      // do not).
      if (step.to_pegroup) arm_timer();
      break;
    case PathStep::Kind::Copies: {
      m_fabric->chain().pop_back();
      std::vector<Copies>& all = m_fabric->copies();
      Copies copies = std::move(all.back());
      all.pop_back();
      return issue_copies(copies, now, left);
    }
  }
  m_fabric->chain().pop_back();
  return {};
}

LtSwitch::Onward LtSwitch::arrive(PortId in_port, Packet& packet, Cycle now, Cycle& left) {
  // An adaptive packet's path is chosen hop by hop: there is none to plan.
  // Nor is there for a detour, which turns at a node of its own.
  if (m_core.is_local(in_port) && !is_collective(packet.header.kind) &&
      !m_core.shared().routing.adaptive() && m_core.shared().routing.faults() == nullptr) {
    m_fabric->plan(m_core.id(), packet.header);
  }
  const VcId in_vc = packet.header.vc;
  const Cycle arrival = packet.head_at;
  const bool request = packet.header.kind == PacketKind::BroadcastRequest;
  const RouteStep* planned = m_fabric->planned_step(packet);
  RouterCore::Route route =
      planned ? m_core.route_p2p(*planned, packet) : m_core.route(in_port, packet);
  const bool to_pegroup = (route.outs >> m_core.pegroup_port()) & 1u;
  Cycle ready = m_core.ready_at(in_port, packet, route);
  InputOrder* order = buffers() ? &m_order[in_port * m_core.vc_count() + in_vc] : nullptr;
  if (order) ready = std::max(ready, order->earliest(arrival, now));
  // A link failing during the run takes the packet if it would start on it in time; else the
  // packet is diverted into the internal port (RouterCore::diverts()), as in AT.
  if (m_core.toward_failing(route) &&
      m_core.diverts(route, m_reservations.first_start(in_port, packet, route, ready, now, 1).at))
      [[unlikely]] {
    route = m_core.diverted(packet);
    ready = std::max(ready, m_core.ready_at(in_port, packet, route));
  }
  const Arrival hop{order, arrival, to_pegroup};
  if (request && order && packet.header.kind == PacketKind::Broadcast && !to_pegroup) {
    // Turned around at the root: it leaves the input buffer for the root's queue.
    left = ready;
    push_arrived(&hop);
    turn(in_port, packet, route, ready);
    return {};
  }
  return pass(in_port, packet, route, ready, now, left, &hop);
}

LtSwitch::Onward LtSwitch::pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready,
                                Cycle now, Cycle& left, const Arrival* arrival) {
  // Copies leave one after another through the crossbar input; the PEGroup's input also
  // carries its sends one after another (they come out of one call, in order).
  Cycle input_free = port == m_core.pegroup_port() ? std::max(ready, m_pegroup_input_free) : ready;
  if (route.adaptive) {
    route = RouterCore::only(
        m_reservations.first_start(port, packet, route, input_free, now, 1).option);
  }
  left = input_free;
  if ((route.outs & (route.outs - 1)) == 0) {  // one copy, as most packets have
    if (route.outs == 0) {
      push_arrived(arrival);
      return {};
    }
    Issue shell{*this, now, route.outs, packet, nullptr};
    const RouterCore::IssuedCopy copy =
        m_core.start_issue(shell, port, packet.header.vc, packet, route,
                           static_cast<PortId>(std::countr_zero(route.outs)), input_free);
    return hand_on(copy, left, arrival, false, now);
  }
  push_arrived(arrival);
  // Only a packet with several copies, with buffers, chooses among them: only then are its
  // starts set, which costs a hop's instructions.
  Copies copies{port, &packet, route, input_free, route.outs, buffers(), {}};
  if (copies.choosing) copies.starts.clear(route.outs);
  return issue_copies(copies, now, left);
}

// Each copy but the last leaves the rest to book once the path beyond it is booked, as a call
// per hop would have booked them after its hand-on returned.
LtSwitch::Onward LtSwitch::issue_copies(Copies& copies, Cycle now, Cycle& left) {
  Packet& packet = *copies.packet;
  const bool copies_left = (copies.route.outs & (copies.route.outs - 1)) != 0;
  const auto out_port =
      copies.choosing && copies_left
          ? m_reservations.next_copy(copies.port, packet, copies.route, copies.input_free, now,
                                     std::popcount(copies.all_outs), copies.starts)
          : static_cast<PortId>(std::countr_zero(copies.route.outs));
  Issue shell{*this, now, copies.all_outs, packet, copies.choosing ? &copies.starts : nullptr};
  const RouterCore::IssuedCopy copy = m_core.start_issue(
      shell, copies.port, packet.header.vc, packet, copies.route, out_port, copies.input_free);
  if (copies_left) {
    copies.starts.fresh = 0;  // the booking may have moved the other copies' starts later
    copies.starts.last.reset();
    m_fabric->copies().push_back(std::move(copies));
    m_fabric->chain().push_back({.kind = PathStep::Kind::Copies, .sw = this});
  }
  return hand_on(copy, left, nullptr, true, now);
}

Cycle LtSwitch::pass_whole(PortId port, Packet& packet, RouterCore::Route route, Cycle ready,
                           Cycle now) {
  const std::size_t base = m_fabric->chain().size();
  Cycle left = 0;
  const Onward onward = pass(port, packet, route, ready, now, left, nullptr);
  return run(onward, base, left, now);
}

LtSwitch::Onward LtSwitch::hand_on(const RouterCore::IssuedCopy& copy, Cycle free,
                                   const Arrival* arrival, bool asked, Cycle now) {
  const Grant& g = copy.grant;
  const PortId port = g.out_port;
  const auto step = [&] {
    return PathStep{.kind = PathStep::Kind::Copy,
                    .port = port,
                    .vc = g.out_vc,
                    .worm_hop = copy.worm_hop,
                    .worm_id = copy.worm_id,
                    .sw = this,
                    .free = free,
                    .tail_out = g.tail_out};
  };
  if (m_core.is_link(port) && m_next[port] != nullptr) {
    leave(g);
    // The hop's last copy goes on (to_pegroup is false): its steps as one.
    InputOrder* order = arrival ? arrival->order : nullptr;
    if (asked || buffers() || copy.worm_id != 0) {  // an input order comes with buffers
      PathStep s = step();
      s.handed = buffers();
      s.order = order;
      if (order) s.at = arrival->at;
      m_fabric->chain().push_back(s);
    }
    return {m_next[port], next_input(port), g.packet};
  }
  push_arrived(arrival);
  m_fabric->chain().push_back(step());
  if (port == m_core.pegroup_port()) return into_pegroup(g, now);
  // Routes eject only where a node sits.
  leave(g);
  Packet& packet = *g.packet;
  sc_core::sc_time delay = m_clock.until(packet.head_at);
  m_endpoints[port - m_core.first_local()]->take(packet, delay);
  if (buffers()) close_hold(port, g.out_vc, m_clock.after(delay));
  return {};
}

void LtSwitch::push_arrived(const Arrival* arrival) {
  if (arrival && (arrival->order || arrival->to_pegroup)) {
    m_fabric->chain().push_back({.kind = PathStep::Kind::Arrived,
                                 .to_pegroup = arrival->to_pegroup,
                                 .sw = this,
                                 .order = arrival->order,
                                 .at = arrival->at});
  }
}

// The credits come back one channel latency after the packet has left the buffer there.
void LtSwitch::close_hold(PortId port, VcId vc, Cycle left) {
  m_reservations.holds(port, vc).close(left + m_core.timing(port).latency);
}

void LtSwitch::leave(const Grant& g) {
  if (g.in_port == m_core.pegroup_port()) {  // a worm's tail is known later: its flits' time
    m_pegroup_input_free =
        g.tail_out != kNever
            ? g.tail_out
            : g.start + m_core.timing(g.out_port).serialization(g.packet->wire_flits());
  }
  m_core.forward(*g.packet, g);
}

// Never from the PEGroup's own input. Without buffers its sends go on at once, the last one as
// the path's next hop.
LtSwitch::Onward LtSwitch::into_pegroup(const Grant& g, Cycle now) {
  std::vector<CollectiveSend> sends;
  m_core.pegroup_accept(g, sends);
  if (sends.empty()) return {};
  for (std::size_t i = 0; i + 1 < sends.size(); ++i) send(sends[i], now);
  const CollectiveSend& last = sends.back();
  if (buffers()) {
    send(last, now);
    return {};
  }
  const RouterCore::Route route = m_core.route_send(last);
  if (route.outs == 0) return {};
  Cycle left = 0;
  return pass(m_core.pegroup_port(), *last.packet, route, last.ready, now, left, nullptr);
}

void LtSwitch::send(const CollectiveSend& s, Cycle now) {
  if (buffers()) {
    m_pegroup_sends.push_back(s);
    send_due(now);
    return;
  }
  const RouterCore::Route route = m_core.route_send(s);
  if (route.outs != 0) pass_whole(m_core.pegroup_port(), *s.packet, route, s.ready, now);
}

// A send is booked when the crossbar input would take it, which is when pass() would start it:
// the times come out as if it were booked at once, unless others' bookings meanwhile took its
// place, as they would in AT.
void LtSwitch::send_due(Cycle now) {
  while (!m_pegroup_sends.empty()) {
    const CollectiveSend s = m_pegroup_sends.front();
    const Cycle due = std::max(s.ready, m_pegroup_input_free);
    if (due > now) {
      m_fabric->calendar().wake_at(*this, due);
      return;
    }
    m_pegroup_sends.pop_front();
    const RouterCore::Route route = m_core.route_send(s);
    if (route.outs != 0) pass_whole(m_core.pegroup_port(), *s.packet, route, s.ready, now);
  }
}

void LtSwitch::turn(PortId port, Packet& packet, const RouterCore::Route& route, Cycle ready) {
  if (!m_turned) m_turned = std::make_unique<std::array<TurnQueue, kMaxLinkPorts>>();
  TurnQueue& q = (*m_turned)[port];
  q.waiting.push_back({&packet, route, ready});
  if (q.waiting.size() == 1) m_fabric->calendar().wake_at(*this, std::max(ready, q.free));
}

void LtSwitch::turn_due(Cycle now) {
  if (!m_turned) return;
  for (PortId port = 0; port < m_core.first_local(); ++port) {
    TurnQueue& q = (*m_turned)[port];
    while (!q.waiting.empty()) {
      const Turned t = q.waiting.front();
      const Cycle due = std::max(t.ready, q.free);
      if (due > now) {
        m_fabric->calendar().wake_at(*this, due);
        break;
      }
      q.waiting.pop_front();
      q.free = pass_whole(port, *t.packet, t.route, now, now);
    }
  }
}

void LtSwitch::woken() {
  const Cycle now = m_clock.now();
  std::vector<CollectiveSend> sends;
  m_core.collective()->on_timer(now, sends);
  for (const CollectiveSend& s : sends) send(s, now);
  send_due(now);
  turn_due(now);
  arm_timer();
}

void LtSwitch::arm_timer() {
  if (!m_core.collective()) return;
  const Cycle due = m_core.collective()->next_timer();
  if (due != kNever) m_fabric->calendar().wake_at(*this, due);
}

void LtSwitch::set_fabric(LtFabric& fabric) {
  m_fabric = &fabric;
  if (const LtBuffers* buffers = fabric.buffers()) {
    m_reservations.set_holds(buffers->holds(m_core.id()));
    m_order = buffers->orders(m_core.id());
  }
  m_endpoints = fabric.endpoints(m_core.id());
  const Topology& topology = m_core.shared().topology;
  for (int p = 0; p < m_core.first_local(); ++p) {
    m_next[p] = &fabric.at(topology.peer(m_core.id(), static_cast<PortId>(p)).router);
  }
}

PortId LtSwitch::next_input(PortId port) const {
  const Topology& topology = m_core.shared().topology;
  return topology.torus() ? port : topology.peer(m_core.id(), port).port;
}

void LtSwitch::prefetch_input(PortId port) const {
  __builtin_prefetch(m_next.data());
  __builtin_prefetch(&m_core);
  m_reservations.prefetch_input(port);
}

}  // namespace angara
