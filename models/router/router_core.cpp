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

RouterCore::Queued RouterCore::route(PortId port, Packet& packet) const {
  const int classes = m_routing.vc_classes();
  std::optional<Direction> arrived_by;
  if (port != m_local) arrived_by = Direction::from_index(port);
  const RouteStep step =
      m_routing.route(m_id, packet.header.dst, arrived_by, packet.header.vc % classes);
  const int set = packet.header.vc / classes;
  return {&packet, step.eject ? m_local : static_cast<PortId>(step.dir.index()),
          static_cast<VcId>(set * classes + step.vc_class),
          m_routing.required_credits(step, packet.wire_flits())};
}

Cycle RouterCore::receive(PortId port, Packet& packet) {
  auto& fifo = m_inputs[input_index(port, packet.header.vc)];
  fifo.push_back(route(port, packet));
  return fifo.size() == 1 ? ready_at(fifo.front()) : kNever;
}

bool RouterCore::return_credits(PortId port, VcId vc, int flits, Cycle at) {
  return m_credits[input_index(port, vc)].add(at, flits);
}

Cycle RouterCore::ready_at(const Queued& q) const {
  const Packet& p = *q.packet;
  // The tail may not leave before it has arrived: start + serialization >= tail_at.
  const Cycle out_ser = timing(q.out).serialization(p.wire_flits());
  const Cycle tail_bound = p.tail_at > out_ser ? p.tail_at - out_ser : 0;
  return std::max(p.head_at + m_pipeline, tail_bound);
}

void RouterCore::allocate(Cycle now, std::vector<Grant>& grants) {
  // Requests: the head of every input VC that could start now, credits included.
  m_requests.clear();
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const PortId port = static_cast<PortId>(i / m_vcs);
    const Queued& q = m_inputs[i].front();
    if (m_input_busy[port] > now || m_output_busy[q.out] > now || ready_at(q) > now) continue;
    auto& credits = m_credits[input_index(q.out, q.out_vc)];
    if (credits.at(now) < q.need) continue;
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
      if (m_inputs[i].front().out != out || m_input_busy[port] > now) continue;
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
    m_credits[input_index(out, q.out_vc)].consume(flits);
    if (out != m_local) m_flit_hops += flits;
    grants.push_back(
        {q.packet, port, static_cast<VcId>(best % m_vcs), out, q.out_vc, now, tail_out});
  }
}

void RouterCore::forward(Packet& packet, const Grant& g) const {
  const ChannelTiming& t = timing(g.out_port);
  packet.header.vc = g.out_vc;
  packet.head_at = g.start + t.latency + t.serialization(1);
  packet.tail_at = g.start + t.latency + t.serialization(packet.wire_flits());
  if (g.out_port != m_local) ++packet.hops;
}

Cycle RouterCore::next_wakeup(Cycle now) {
  Cycle next = kNever;
  for (int i = 0; i < static_cast<int>(m_inputs.size()); ++i) {
    if (m_inputs[i].empty()) continue;
    const PortId port = static_cast<PortId>(i / m_vcs);
    const Queued& q = m_inputs[i].front();
    const Cycle t = std::max({ready_at(q), m_input_busy[port], m_output_busy[q.out]});
    auto& credits = m_credits[input_index(q.out, q.out_vc)];
    const Cycle c = credits.when(t, q.need);
    if (c == kNever) {
      credits.mark_waited_on();  // the credit return will wake us
      continue;
    }
    next = std::min(next, std::max(c, now + 1));
  }
  return next;
}

bool RouterCore::idle() const {
  return std::all_of(m_inputs.begin(), m_inputs.end(), [](const auto& f) { return f.empty(); });
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
    const auto& credits = m_credits[input_index(q.out, q.out_vc)];
    const Packet& p = *q.packet;
    oldest = Blocked{
        p.head_at,
        fmt::format("router {} input port {} VC {}: packet #{} ({} -> {}, {} flits) waits since "
                    "cycle {} for output {} VC {}, which has {} free flits of the {} it needs",
                    m_torus.format(m_id), port_name(port), i % m_vcs, p.header.seq,
                    m_torus.format(p.header.src), m_torus.format(p.header.dst), p.wire_flits(),
                    p.head_at, port_name(q.out), q.out_vc, credits.available(), q.need)};
  }
  return oldest;
}

}  // namespace angara
