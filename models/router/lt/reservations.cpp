#include "models/router/lt/reservations.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "models/router/lt/prefetch.h"
#include "models/router/lt/train_pacing.h"

namespace angara {

LtReservations::LtReservations(const RouterCore& core) : m_core(core) {
  const auto ports = static_cast<std::size_t>(core.port_count());
  if (ports > m_outputs.size()) {  // a fat tree's switch: outputs and crossbar inputs past those
    m_wide = std::make_unique<LinkCalendar[]>(2 * (ports - m_outputs.size()));
  }
}

LtReservations::Booked LtReservations::book(OutputRequest& r, Cycle now, int copies,
                                            Cycle tail_floor, const CopyStarts* starts) {
  if (!buffers() || r.out == m_core.pegroup_port()) {
    const Cycle at = output(r.out)->book(r.earliest, r.length, now);
    r.tail = std::max(r.tail, tail_floor - std::min(tail_floor, at));
    return {at, at - r.earliest};
  }
  const bool known = starts != nullptr && starts->last && starts->last->request.out == r.out &&
                     starts->last->request.earliest == r.earliest;
  if (known) r = starts->last->request;
  const Fit fit = known ? starts->last->fit : this->fit(r, now, copies);
  r.tail = std::max(r.tail, tail_floor - std::min(tail_floor, fit.at));
  output(r.out)->take(fit.output, r.length);
  if (LinkCalendar* input = crossbar_input(r.in)) input->take(fit.input, r.input);
  holds(r.out, r.vc).open(fit.at, fit.claim.flits, fit.claim.lanes, fit.claim.step);
  return {fit.at, fit.behind};
}

// The crossbar input carries one packet at a time, whichever VC it comes from.
LinkCalendar* LtReservations::crossbar_input(PortId input) {
  return input == m_core.pegroup_port() ? nullptr : crossbar(input);
}

LtReservations::Fit LtReservations::fit(OutputRequest& r, Cycle now, int copies) {
  LinkCalendar& link = *output(r.out);
  // The PEGroup takes whatever the crossbar hands it: only its channel counts.
  if (r.out == m_core.pegroup_port()) {
    const LinkCalendar::Gap gap = link.find(r.earliest, r.length, now);
    return {gap.start, gap, {}, {}};
  }
  LinkCalendar* input = crossbar_input(r.in);
  HoldCalendar& holds = this->holds(r.out, r.vc);
  const int capacity = m_core.buffer_flits(r.out, r.vc);
  BufferClaim claim{0, std::min(r.need, capacity), std::min(r.flits, capacity)};
  if (r.train > 1) {  // packets that follow one another through the buffer, in lanes
    const Stream s = stream(m_core, r);
    claim = {0, s.packet + (r.need - r.flits), s.packet, 0, s.lanes, s.step};
    r.tail = s.tail;
    // The crossbar input carries the stream at its pace, its copies in turn: the next train of
    // the stream (on another VC set) follows it.
    r.input = std::max(r.length, (s.period + copies - 1) / copies);
  }
  claim.span = least_hold(m_core, r.out, r.vc, r.tail);
  // A worm holds the buffer until its tail has left it, which takes it several credit round
  // trips when the buffer is shorter than it.
  const RouterShared& shared = m_core.shared();
  if (r.flits > capacity && !shared.vcs.collective(r.vc) && shared.wormhole) {
    claim.span = std::max(claim.span, shared.worm_holds[r.flits]);
  }
  // A processor's copies come through the crossbar input one by one: of a wait for the output,
  // only what is past the input's next free cycle is for others' copies.
  const bool injected = m_core.is_local(r.in);
  Cycle at = r.earliest, behind = 0;
  for (;;) {
    const LinkCalendar::Gap free = link.find(at, r.length, now);
    if (injected) {
      const Cycle own = input ? input->find(at, r.input, now).start : at;
      behind += free.start > own ? free.start - own : 0;
    }
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
    if (room == at) return {at, free, through, claim, behind};  // at == free.start == through.start
    at = room;
  }
}

// With buffers a packet's copies go as AT's allocation grants them: each next to the output
// that can take it first (port order among equals), not in port order. An adaptive packet takes
// the option it can start on first (preference order among equals).
LtReservations::Start LtReservations::first_start(PortId port, const Packet& packet,
                                                  const RouterCore::Route& route, Cycle from,
                                                  Cycle now, int copies) {
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
PortId LtReservations::next_copy(PortId port, const Packet& packet, const RouterCore::Route& route,
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

void LtReservations::prefetch_output(PortId port) const {
  prefetch_object(output(port));
}

void LtReservations::prefetch_input(PortId port) const {
  if (buffers()) prefetch_object(crossbar(port));
}

}  // namespace angara
