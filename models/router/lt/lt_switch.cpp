#include "models/router/lt/lt_switch.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace angara {

LtSwitch::LtSwitch(RouterCore core, const FabricClock& clock)
    : m_clock(clock), m_core(std::move(core)) {}

Cycle LtSwitch::hop(PortId in_port, Packet& packet, Cycle now) {
  // An adaptive packet's path is chosen hop by hop: there is none to plan.
  // Nor is there for a detour, which turns at a node of its own.
  if (in_port == m_core.local_port() && m_fabric && !is_collective(packet.header.kind) &&
      !m_core.shared().routing.adaptive() && m_core.shared().routing.faults() == nullptr) {
    m_fabric->plan(m_core.id(), packet.header);
  }
  const VcId in_vc = packet.header.vc;
  const Cycle arrival = packet.head_at;
  const RouteStep* planned = m_fabric ? m_fabric->planned_step(packet) : nullptr;
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
  const Cycle left = pass(in_port, packet, route, ready, now);
  if (order) order->left(arrival, left);
  // Only the PEGroup taking a packet moves the collective's timer (point-to-point packets do not).
  if (to_pegroup) arm_timer();
  return left;
}

Cycle LtSwitch::pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready, Cycle now) {
  // Copies leave one after another through the crossbar input; the PEGroup's input also
  // carries its sends one after another (they come out of one call, in order).
  Cycle input_free = port == m_core.pegroup_port() ? std::max(ready, m_pegroup_input_free) : ready;
  if (route.adaptive) {
    route = RouterCore::only(
        m_reservations.first_start(port, packet, route, input_free, now, 1).option);
  }
  // Only a packet with several copies, with buffers, chooses among them (most have one): only
  // then are its starts set, which costs a hop's instructions.
  const bool choosing = buffers() && (route.outs & (route.outs - 1)) != 0;
  LtReservations::CopyStarts starts;
  if (choosing) starts.clear(route.outs);
  Issue shell{*this, now, route.outs, packet, choosing ? &starts : nullptr};
  const VcId in_vc = packet.header.vc;
  Cycle left = input_free;
  while (route.outs != 0) {
    const bool copies_left = (route.outs & (route.outs - 1)) != 0;  // more than one bit
    const auto out_port = choosing && copies_left
                              ? m_reservations.next_copy(port, packet, route, input_free, shell.now,
                                                         shell.copies(), starts)
                              : static_cast<PortId>(std::countr_zero(route.outs));
    left = std::max(left, m_core.issue(shell, port, in_vc, packet, route, out_port, input_free));
    starts.fresh = 0;  // the booking may have moved the other copies' starts later
    starts.last.reset();
  }
  return left;
}

void LtSwitch::hand_on(const Grant& g, Cycle now) {
  if (g.out_port == m_core.pegroup_port()) {  // never from the PEGroup's own input
    std::vector<CollectiveSend> sends;
    m_core.pegroup_accept(g, sends);
    for (const CollectiveSend& s : sends) send(s, now);
    return;
  }
  if (g.in_port == m_core.pegroup_port()) {  // a worm's tail is known later: its flits' time
    m_pegroup_input_free =
        g.tail_out != kNever
            ? g.tail_out
            : g.start + m_core.timing(g.out_port).serialization(g.packet->wire_flits());
  }
  Packet& packet = *g.packet;
  m_core.forward(packet, g);
  const PortId port = g.out_port;
  Cycle left = 0;  // when the packet has left the buffer behind the output (with buffers)
  if (port < m_core.local_port() && m_next[port] != nullptr) {
    left = m_next[port]->hop(next_input(port), packet, now);
  } else {  // routes eject only where a node sits
    sc_core::sc_time delay = m_clock.until(packet.head_at);
    m_endpoint->take(packet, delay);
    if (buffers()) left = m_clock.after(delay);
  }
  // The credits come back one channel latency after the packet has left the buffer there.
  if (!buffers()) return;
  m_reservations.holds(port, g.out_vc).close(left + m_core.timing(port).latency);
}

void LtSwitch::send(const CollectiveSend& s, Cycle now) {
  if (buffers()) {
    m_pegroup_sends.push_back(s);
    send_due(now);
    return;
  }
  const RouterCore::Route route = m_core.route_send(s);
  if (route.outs != 0) pass(m_core.pegroup_port(), *s.packet, route, s.ready, now);
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
    if (route.outs != 0) pass(m_core.pegroup_port(), *s.packet, route, s.ready, now);
  }
}

void LtSwitch::woken() {
  const Cycle now = m_clock.now();
  std::vector<CollectiveSend> sends;
  m_core.collective()->on_timer(now, sends);
  for (const CollectiveSend& s : sends) send(s, now);
  send_due(now);
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
  m_endpoint = fabric.endpoint(m_core.id());
  const Topology& topology = m_core.shared().topology;
  for (int p = 0; p < m_core.local_port(); ++p) {
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
