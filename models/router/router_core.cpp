#include "models/router/router_core.h"

#include <fmt/format.h>
#include <algorithm>

namespace angara {

RouterCore::RouterCore(NodeId id, const Torus& torus, const DirectionOrderRouting& routing,
                       const RouterParams& params, const ChannelTiming& link,
                       const ChannelTiming& local)
    : m_id(id),
      m_torus(torus),
      m_routing(routing),
      m_vcs(params.vcs),
      m_pipeline(params.pipeline_cycles),
      m_local(static_cast<PortId>(torus.direction_count())),
      m_link_t(link),
      m_local_t(local) {
  const auto ports = static_cast<std::size_t>(port_count());
  m_inputs.resize(ports * m_vcs);
  m_input_busy.assign(ports, 0);
  m_output_busy.assign(ports, 0);
  m_credits.assign(ports * m_vcs, CreditCounter(params.buffer_flits));
  m_round_robin.assign(ports, static_cast<int>(ports * m_vcs) - 1);
}

RouterCore::Route RouterCore::route(PortId port, const Packet& packet) const {
  // VC = set * classes + class, with 1 or 2 classes: mask and shift, no division per hop.
  const int class_bits = m_routing.vc_classes() - 1;
  std::optional<Direction> arrived_by;
  if (port != m_local) arrived_by = Direction::from_index(port);
  const RouteStep step =
      m_routing.route(m_id, packet.header.dst, arrived_by, packet.header.vc & class_bits);
  const int set_base = packet.header.vc & ~class_bits;
  return {step.eject ? m_local : static_cast<PortId>(step.dir.index()),
          static_cast<VcId>(set_base + step.vc_class),
          m_routing.required_credits(step, packet.wire_flits())};
}

Cycle RouterCore::ready_at(const Packet& p, const Route& r) const {
  const Cycle out_ser = timing(r.out).serialization(p.wire_flits());
  const Cycle tail_bound = p.tail_at > out_ser ? p.tail_at - out_ser : 0;
  return std::max(p.head_at + m_pipeline, tail_bound);
}

Cycle RouterCore::receive(PortId port, Packet& packet) {
  auto& fifo = m_inputs[input_index(port, packet.header.vc)];
  fifo.push_back({&packet, route(port, packet)});
  return fifo.size() == 1 ? ready_at(packet, fifo.front().route) : kNever;
}

bool RouterCore::return_credits(PortId port, VcId vc, int flits, Cycle at) {
  return m_credits[input_index(port, vc)].add(at, flits);
}

void RouterCore::allocate(Cycle now, std::vector<Grant>& grants) {
  // Requests: the head of every input VC that could start now, credits included.
  m_requests.clear();
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const PortId port = static_cast<PortId>(i / m_vcs);
    const Queued& q = m_inputs[i].front();
    const Route& r = q.route;
    if (m_input_busy[port] > now || m_output_busy[r.out] > now || ready_at(*q.packet, r) > now) {
      continue;
    }
    if (m_credits[input_index(r.out, r.out_vc)].at(now) < r.need) continue;
    m_requests.push_back(i);
  }
  // Each free output grants the requester after the one it granted last (round robin);
  // a crossbar input carries one packet at a time.
  const int total = static_cast<int>(m_inputs.size());
  for (int o = 0; o < port_count(); ++o) {
    const auto out = static_cast<PortId>(o);
    int best = -1, best_rank = total;
    for (int i : m_requests) {
      const PortId port = static_cast<PortId>(i / m_vcs);
      if (m_inputs[i].front().route.out != out || m_input_busy[port] > now) continue;
      const int rank = (i - m_round_robin[out] - 1 + total) % total;
      if (rank < best_rank) best = i, best_rank = rank;
    }
    if (best < 0) continue;
    const PortId port = static_cast<PortId>(best / m_vcs);
    const Queued q = m_inputs[best].front();
    m_inputs[best].pop_front();
    const int flits = q.packet->wire_flits();
    const Cycle tail_out = now + timing(out).serialization(flits);
    m_round_robin[out] = best;
    m_input_busy[port] = tail_out;
    m_output_busy[out] = tail_out;
    m_credits[input_index(out, q.route.out_vc)].consume(flits);
    grants.push_back(
        {q.packet, port, static_cast<VcId>(best % m_vcs), out, q.route.out_vc, now, tail_out});
  }
}

void RouterCore::forward(Packet& packet, const Grant& g) {
  const ChannelTiming& t = timing(g.out_port);
  packet.header.vc = g.out_vc;
  packet.head_at = g.start + t.latency + t.serialization(1);
  packet.tail_at = g.start + t.latency + t.serialization(packet.wire_flits());
  if (g.out_port != m_local) {
    ++packet.hops;
    m_flit_hops += static_cast<std::uint64_t>(packet.wire_flits());
  }
}

Cycle RouterCore::next_wakeup(Cycle now) {
  Cycle next = kNever;
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const PortId port = static_cast<PortId>(i / m_vcs);
    const Queued& q = m_inputs[i].front();
    const Route& r = q.route;
    const Cycle t = std::max({ready_at(*q.packet, r), m_input_busy[port], m_output_busy[r.out]});
    auto& credits = m_credits[input_index(r.out, r.out_vc)];
    const Cycle c = credits.when(t, r.need);
    if (c == kNever) {
      credits.mark_waited_on();  // the credit return will wake us
      continue;
    }
    next = std::min(next, std::max(c, now + 1));
  }
  return next;
}

std::string RouterCore::port_name(PortId port) const {
  return port == m_local ? "local" : Direction::from_index(port).name();
}

std::optional<RouterCore::Blocked> RouterCore::oldest_blocked(Cycle now) const {
  std::optional<Blocked> oldest;
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const Queued& q = m_inputs[i].front();
    if (q.packet->head_at > now || (oldest && oldest->since <= q.packet->head_at)) continue;
    const PortId port = static_cast<PortId>(i / m_vcs);
    const Route& r = q.route;
    const auto& credits = m_credits[input_index(r.out, r.out_vc)];
    const Packet& p = *q.packet;
    oldest = Blocked{
        p.head_at,
        fmt::format("router {} input port {} VC {}: packet #{} ({} -> {}, {} flits) waits since "
                    "cycle {} for output {} VC {}, which has {} free flits of the {} it needs",
                    m_torus.format(m_id), port_name(port), i % m_vcs, p.header.seq,
                    m_torus.format(p.header.src), m_torus.format(p.header.dst), p.wire_flits(),
                    p.head_at, port_name(r.out), r.out_vc, credits.available(), r.need)};
  }
  return oldest;
}

}  // namespace angara
