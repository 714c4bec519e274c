#include "models/router/router_lt.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

namespace angara {
namespace {

// Asks the cache for both ends of `object` (the calendars here span two lines at most).
template <typename T>
void prefetch_object(const T* object) {
  const auto* bytes = reinterpret_cast<const char*>(object);
  __builtin_prefetch(bytes);
  __builtin_prefetch(bytes + sizeof(T) - 1);
}

}  // namespace

RouterLt::RouterLt(const sc_core::sc_module_name& name, RouterCore core, const FabricClock& clock)
    : sc_core::sc_module(name), out("out"), in("in"), m_clock(clock), m_core(std::move(core)) {
  const auto ports = static_cast<std::size_t>(m_core.port_count());
  if (ports > m_outputs.size()) {  // a fat tree's switch: outputs and crossbar inputs past those
    m_wide = std::make_unique<LinkCalendar[]>(2 * (ports - m_outputs.size()));
  }
  in.register_b_transport(this, &RouterLt::b_transport);
}

// `packet.head_at`/`tail_at` say when it is in this router (the annotated delay, in cycles).
void RouterLt::b_transport(int port, Packet& packet, sc_core::sc_time& delay) {
  const Cycle left = hop(static_cast<PortId>(port), packet, m_clock.now());
  if (buffers()) delay = m_clock.until(left);  // only the buffers behind ask
}

Cycle RouterLt::hop(PortId in_port, Packet& packet, Cycle now) {
  // An adaptive packet's path is chosen hop by hop: there is none to plan.
  // Nor is there for a detour, which turns at a node of its own.
  if (in_port == m_core.local_port() && m_fabric && !is_collective(packet.header.kind) &&
      !m_core.shared().routing.adaptive() && m_core.shared().routing.faults() == nullptr) {
    prefetch_path(packet.header);
  }
  const VcId in_vc = packet.header.vc;
  const Cycle arrival = packet.head_at;
  const RouteStep* planned = m_fabric ? m_fabric->plan().take(packet) : nullptr;
  RouterCore::Route route =
      planned ? m_core.route_p2p(*planned, packet) : m_core.route(in_port, packet);
  const bool to_pegroup = (route.outs >> m_core.pegroup_port()) & 1u;
  Cycle ready = m_core.ready_at(in_port, packet, route);
  InputOrder* order = buffers() ? &m_order[in_port * m_core.vc_count() + in_vc] : nullptr;
  if (order) ready = std::max(ready, order->earliest(arrival, now));
  // A link failing during the run takes the packet if it would start on it in time; else the
  // packet is diverted into the internal port (RouterCore::diverts()), as in AT.
  if (m_core.toward_failing(route) &&
      m_core.diverts(route, first_start(in_port, packet, route, ready, now, 1).at)) [[unlikely]] {
    route = m_core.diverted(packet);
    ready = std::max(ready, m_core.ready_at(in_port, packet, route));
  }
  const Cycle left = pass(in_port, packet, route, ready, now);
  if (order) order->left(arrival, left);
  // Only the PEGroup taking a packet moves the collective's timer (point-to-point packets do not).
  if (to_pegroup) arm_timer();
  return left;
}

// The least a packet holds the buffer behind its output: across the channel, through the next
// router (its pipeline; VCUp/VCDown store it whole and read the table first) and out of it,
// then the credits' way back. The endpoint takes it as it comes.
Cycle RouterLt::least_hold(PortId port, VcId vc, Cycle length) const {
  const ChannelTiming& t = m_core.timing(port);
  const RouterShared& shared = m_core.shared();
  Cycle through = 0;
  if (port != m_core.local_port()) {
    through = !shared.vcs.collective(vc)
                  ? t.serialization(1) + shared.pipeline
                  : length + shared.coll.table_cycles + shared.coll.analysis_cycles;
  }
  return 2 * t.latency + through + length;
}

Cycle RouterLt::book(OutputRequest& r, Cycle now, int copies, Cycle tail_floor,
                     const CopyStarts* starts) {
  if (!buffers() || r.out == m_core.pegroup_port()) {
    const Cycle at = output(r.out)->book(r.earliest, r.length, now);
    r.tail = std::max(r.tail, tail_floor - std::min(tail_floor, at));
    return at;
  }
  const bool known = starts != nullptr && starts->last && starts->last->request.out == r.out &&
                     starts->last->request.earliest == r.earliest;
  if (known) r = starts->last->request;
  const Fit fit = known ? starts->last->fit : this->fit(r, now, copies);
  r.tail = std::max(r.tail, tail_floor - std::min(tail_floor, fit.at));
  output(r.out)->take(fit.output, r.length);
  if (LinkCalendar* input = crossbar_input(r.in)) input->take(fit.input, r.input);
  holds(r).open(fit.at, fit.claim.flits, fit.claim.lanes, fit.claim.step);
  return fit.at;
}

int RouterLt::capacity(const OutputRequest& r) const {
  return m_core.buffer_flits(r.out, r.vc);
}

HoldCalendar& RouterLt::holds(const OutputRequest& r) {
  return m_holds[r.out * m_core.vc_count() + r.vc];
}

// The crossbar input carries one packet at a time, whichever VC it comes from (the PEGroup's
// input orders its sends itself: null).
LinkCalendar* RouterLt::crossbar_input(PortId input) {
  return input == m_core.pegroup_port() ? nullptr : crossbar(input);
}

RouterLt::Fit RouterLt::fit(OutputRequest& r, Cycle now, int copies) {
  LinkCalendar& link = *output(r.out);
  // The PEGroup takes whatever the crossbar hands it: only its channel counts.
  if (r.out == m_core.pegroup_port()) {
    const LinkCalendar::Gap gap = link.find(r.earliest, r.length, now);
    return {gap.start, gap, {}, {}};
  }
  LinkCalendar* input = crossbar_input(r.in);
  HoldCalendar& holds = this->holds(r);
  const int capacity = this->capacity(r);
  HoldCalendar::Claim claim{0, std::min(r.need, capacity), std::min(r.flits, capacity)};
  if (r.train > 1) {  // packets that follow one another through the buffer, in lanes
    const Stream s = stream(r);
    claim = {0, s.packet + (r.need - r.flits), s.packet, 0, s.lanes, s.step};
    r.tail = s.tail;
    // The crossbar input carries the stream at its pace, its copies in turn: the next train of
    // the stream (on another VC set) follows it.
    r.input = std::max(r.length, (s.period + copies - 1) / copies);
  }
  claim.span = least_hold(r.out, r.vc, r.tail);
  // A worm holds the buffer until its tail has left it, which takes it several credit round
  // trips when the buffer is shorter than it.
  if (r.flits > capacity && !m_core.shared().vcs.collective(r.vc) && m_core.shared().wormhole) {
    claim.span = std::max(claim.span, m_core.shared().worm_holds[r.flits]);
  }
  Cycle at = r.earliest;
  for (;;) {
    const LinkCalendar::Gap free = link.find(at, r.length, now);
    const LinkCalendar::Gap through =
        input ? input->find(free.start, r.input, now) : LinkCalendar::Gap{free.start, 0};
    claim.from = through.start;
    const Cycle room = holds.earliest(claim, capacity, now);
    if (room == kNever) {
      throw std::logic_error(
          fmt::format("router {}: output {} VC {} waits on a buffer that is "
                      "still being booked",
                      m_core.id(), m_core.port_name(r.out), r.vc));
    }
    if (room == at) return {at, free, through, claim};  // then at == free.start == through.start
    at = room;
  }
}

// With buffers a packet's copies go as AT's allocation grants them: each next to the output
// that can take it first (port order among equals), not in port order. An adaptive packet takes
// the option it can start on first (preference order among equals).
RouterLt::Start RouterLt::first_start(PortId port, const Packet& packet,
                                      const RouterCore::Route& route, Cycle from, Cycle now,
                                      int copies) {
  Start best{{}, kNever};
  m_core.for_each_option(port, packet, route, [&](const RouterCore::Option& o) {
    OutputRequest r =
        m_core.request_for(port, o.out, packet, route.adaptive ? RouterCore::only(o) : route, from);
    const Cycle at =
        buffers() ? fit(r, now, copies).at : output(o.out)->find(from, r.length, now).start;
    if (at < best.at) best = {o, at};
  });
  return best;
}

// A copy's booking only adds to the calendars, so it moves the other copies' starts later, never
// earlier: the starts worked out before stay lower bounds, and only the least of them needs
// working out again, until the least is one worked out since the last booking. That is
// first_start()'s choice (port order among equals), at a fraction of its fits on a tree.
PortId RouterLt::next_copy(PortId port, const Packet& packet, const RouterCore::Route& route,
                           Cycle from, Cycle now, int copies, CopyStarts& starts) {
  for (;;) {
    auto least = static_cast<PortId>(std::countr_zero(route.outs));
    for (std::uint32_t outs = route.outs & (route.outs - 1); outs; outs &= outs - 1) {
      const auto o = static_cast<PortId>(std::countr_zero(outs));
      if (starts.at[o] < starts.at[least]) least = o;
    }
    if ((starts.fresh >> least) & 1u) return least;
    OutputRequest r = m_core.request_for(port, least, packet, route, from);
    const Fit f = fit(r, now, copies);
    starts.at[least] = f.at;
    starts.fresh |= 1u << least;
    starts.last = CopyStarts::Worked{r, f};
  }
}

// A train's packets follow one another through the VC as a stream, which has at most the
// packets its buffer lets in at once (each needs room for itself and the bubble) in flight per
// credit round trip, over the point-to-point VC sets its packets would have taken in turn: a
// window of flits per round trip, the last window's packets out one after another.
RouterLt::Stream RouterLt::stream(const OutputRequest& r) const {
  const RouterShared& shared = m_core.shared();
  const ChannelTiming& t = m_core.timing(r.out);
  const int packet = r.flits / r.train;
  const int bubble = r.need - r.flits;
  const int in_flight = std::clamp((capacity(r) - packet - bubble) / packet + 1, 1, r.train);
  const int sets = shared.vcs.collective(r.vc) ? 1 : shared.vcs.injection_sets();
  const Cycle round_trip = least_hold(r.out, r.vc, t.serialization(packet));
  const int window = std::min(in_flight * packet * sets, r.flits);
  const Cycle period = (static_cast<Cycle>(r.flits) * round_trip + window - 1) / window;
  const Cycle tail = std::max(r.length, period - round_trip + t.serialization(window));
  return {in_flight, packet, t.serialization(packet), period, tail};
}

Cycle RouterLt::pass(PortId port, Packet& packet, RouterCore::Route route, Cycle ready, Cycle now) {
  // Copies leave one after another through the crossbar input; the PEGroup's input also
  // carries its sends one after another (they come out of one call, in order).
  Cycle input_free = port == m_core.pegroup_port() ? std::max(ready, m_pegroup_input_free) : ready;
  if (route.adaptive) {
    route = RouterCore::only(first_start(port, packet, route, input_free, now, 1).option);
  }
  // Only a packet with several copies, with buffers, chooses among them (most have one): only
  // then are its starts set (zeroing them all took a tenth of a hop's instructions).
  const bool choosing = buffers() && (route.outs & (route.outs - 1)) != 0;
  CopyStarts starts;
  if (choosing) starts.clear(route.outs);
  Issue shell{*this, now, route.outs, packet, choosing ? &starts : nullptr};
  const VcId in_vc = packet.header.vc;
  Cycle left = input_free;
  while (route.outs != 0) {
    const bool copies_left = (route.outs & (route.outs - 1)) != 0;  // more than one bit
    const auto out_port =
        choosing && copies_left
            ? next_copy(port, packet, route, input_free, shell.now, shell.copies(), starts)
            : static_cast<PortId>(std::countr_zero(route.outs));
    left = std::max(left, m_core.issue(shell, port, in_vc, packet, route, out_port, input_free));
    starts.fresh = 0;  // the booking may have moved the other copies' starts later
    starts.last.reset();
  }
  return left;
}

void RouterLt::hand_on(const Grant& g, Cycle now) {
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
  } else {
    sc_core::sc_time delay = m_clock.until(packet.head_at);
    if (port == m_core.local_port() && m_endpoint != nullptr) {
      m_endpoint->take(packet, delay);
    } else {
      out[port]->b_transport(packet, delay);
    }
    if (buffers()) left = m_clock.after(delay);
  }
  // The credits come back one channel latency after the packet has left the buffer there.
  if (!buffers()) return;
  m_holds[port * m_core.vc_count() + g.out_vc].close(left + m_core.timing(port).latency);
}

void RouterLt::send(const CollectiveSend& s, Cycle now) {
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
void RouterLt::send_due(Cycle now) {
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

void RouterLt::woken() {
  const Cycle now = m_clock.now();
  std::vector<CollectiveSend> sends;
  m_core.collective()->on_timer(now, sends);
  for (const CollectiveSend& s : sends) send(s, now);
  send_due(now);
  arm_timer();
}

void RouterLt::arm_timer() {
  if (!m_core.collective()) return;
  const Cycle due = m_core.collective()->next_timer();
  if (due != kNever) m_fabric->calendar().wake_at(*this, due);
}

void RouterLt::set_fabric(LtFabric& fabric) {
  m_fabric = &fabric;
  if (const LtBuffers* buffers = fabric.buffers()) {
    m_holds = buffers->holds(m_core.id());
    m_order = buffers->orders(m_core.id());
  }
  m_endpoint = fabric.endpoint(m_core.id());
  const Topology& topology = m_core.shared().topology;
  for (int p = 0; p < m_core.local_port(); ++p) {
    m_next[p] = &fabric.router(topology.peer(m_core.id(), static_cast<PortId>(p)).router);
  }
}

PortId RouterLt::next_input(PortId port) const {
  const Topology& topology = m_core.shared().topology;
  return topology.torus() ? port : topology.peer(m_core.id(), port).port;
}

void RouterLt::prefetch_output(PortId port) const {
  prefetch_object(output(port));
}

void RouterLt::prefetch_input(PortId port) const {
  __builtin_prefetch(m_next.data());
  __builtin_prefetch(&m_core);
  if (buffers()) prefetch_object(crossbar(port));
}

void RouterLt::prefetch_path(const PacketHeader& header) const {
  const VcId vc = header.vc;
  const RouterShared& shared = m_core.shared();
  const int set_base = shared.vcs.set_base(vc);  // no legs: prefetched without faults only
  const int vcs = m_core.vc_count();
  const LtBuffers* buffers = m_fabric->buffers();
  PlannedPath& plan = m_fabric->plan();
  NodeId here = m_core.id();
  std::optional<PortId> arrived;
  int vc_class = shared.vcs.class_of(vc);
  plan.begin(header);
  for (;;) {
    const RouteStep step = shared.routing.route(here, arrived, header, vc_class);
    plan.add(step);
    const PortId port = step.eject ? shared.topology.ports(here) : step.port;
    m_fabric->router(here).prefetch_output(port);
    if (buffers) prefetch_object(&buffers->holds(here)[port * vcs + set_base + step.vc_class]);
    if (step.eject) {
      m_fabric->endpoint(here)->prefetch();
      return;
    }
    const LinkEnd next_end = shared.topology.peer(here, port);
    here = next_end.router;
    arrived = next_end.port;
    vc_class = step.vc_class;
    if (buffers) prefetch_object(&buffers->orders(here)[next_end.port * vcs + set_base + vc_class]);
    m_fabric->router(here).prefetch_input(next_end.port);
  }
}

}  // namespace angara
