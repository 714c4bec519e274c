#include "models/endpoint/endpoint_core.h"

#include <algorithm>

namespace angara {

EndpointCore::EndpointCore(NodeId id, TrafficSource& source, TrafficObserver& observer,
                           PacketLedger& ledger, PacketPool& pool, const FabricParams& params)
    : m_id(id),
      m_source(source),
      m_observer(observer),
      m_ledger(ledger),
      m_pool(pool),
      m_channel(params.endpoint, params.router.clock_mhz),
      m_vcs(params.router.vc_layout()),
      m_next(source.next()),
      m_stop(kNever),
      m_credits(params.router.vcs, CreditCounter(params.router.local_buffer_flits())) {
  m_credits.emplace_back(params.collective.buffer_flits);  // the PEGroup FIFO
  m_holds.resize(m_credits.size());
}

void EndpointCore::refresh() {
  if (m_next) m_source.put_back(*m_next);  // the new work may come first
  m_next = m_source.next();
}

void EndpointCore::pull_created(Cycle now) {
  while (m_next && m_next->created <= now && m_next->created < m_stop) {
    if (m_queue.size() >= m_queue_limit) {
      m_capped = true;
      return;
    }
    m_observer.created(*m_next, m_id);
    m_queue.push_back(*m_next);
    m_next = m_source.next();
  }
}

// Point-to-point packets take the VC sets in turn, starting in class 0.
VcId EndpointCore::next_vc() const {
  return m_vcs.injection_vc(m_p2p_sent);
}

VcId EndpointCore::vc_for(const PacketRequest& request) const {
  // Collective packets go into the router's PEGroup FIFO on the local port: its VCUp.
  return is_collective(request.kind) ? m_vcs.up() : next_vc();
}

Packet* EndpointCore::inject(Cycle now, Cycle horizon) {
  pull_created(horizon - 1);
  if (m_queue.empty()) return nullptr;
  const PacketRequest& front = m_queue.front();
  Cycle start = std::max(front.created, m_channel_free);
  const VcId vc = vc_for(front);
  const int flits = front.wire_flits();
  if (m_flow != FlowControl::Credits) {
    if (m_flow == FlowControl::Holds) start = room(vc, std::max(start, now), front, now);
    if (start >= horizon) return nullptr;
    if (m_flow == FlowControl::Holds) {
      const BufferClaim c = claim(vc, front, start);
      m_holds[vc].open(start, c.flits, c.lanes, c.step);
      m_room.reset();
    }
    Packet* p = start_packet(start);
    m_observer.on_the_way(p->header.dst);
    return p;
  }
  start = std::max(start, now);
  if (start >= horizon) return nullptr;
  CreditCounter& credits = m_credits[vc];
  if (credits.at(start) < flits) return nullptr;
  credits.consume(flits);
  return start_packet(start);
}

Packet* EndpointCore::start_packet(Cycle start) {
  const PacketRequest& req = m_queue.front();
  const VcId vc = vc_for(req);
  const int flits = req.wire_flits();
  const bool collective = is_collective(req.kind);
  const bool ledgered = req.kind == PacketKind::Write;
  Packet* p = m_pool.acquire();
  p->header.kind = req.kind;
  p->header.src = m_id;
  p->header.dst = req.dst;
  p->header.data_flits = static_cast<std::uint8_t>(req.data_flits);
  p->train = req.train;
  p->header.vc = vc;
  // Collective packets are not point-to-point packets of the ledger: a sequence space of their own.
  p->header.set_sequence(collective ? (std::uint64_t{1} << 63) |
                                          PacketLedger::sequence(m_id, m_collective_sent++)
                                    : PacketLedger::sequence(m_id, m_sent));
  m_source.fill(*p, req);
  p->created = req.created;
  p->message_packets = req.message_packets;
  p->message_index = req.message_index;
  p->request_tag = req.tag;
  p->head_at = start + m_channel.latency + m_channel.serialization(1);
  p->tail_at = start + m_channel.latency + m_channel.serialization(flits);
  m_queue.pop_front();
  m_channel_free = start + m_channel.serialization(flits);
  if (!collective) ++m_p2p_sent;
  if (ledgered) {
    ++m_sent;
    m_ledger.injected(*p);
  }
  m_source.sent(*p);
  return p;
}

// With credits the shell takes each request as it is created and then waits for the channel and
// the credits; without, it takes requests up to its horizon only when it sends, so it wakes for
// the next one only when that could start.
Cycle EndpointCore::next_wakeup(Cycle now) {
  Cycle next = kNever;
  // A full queue takes the next packet when its front leaves, which the front's wakeup covers.
  if (m_next && m_next->created < m_stop && m_queue.size() < m_queue_limit) {
    next = std::max(m_next->created, now + 1);
    if (m_flow != FlowControl::Credits) next = std::max(next, m_channel_free);
  }
  if (m_queue.empty()) return next;
  const PacketRequest& front = m_queue.front();
  const Cycle from = std::max({front.created, m_channel_free, now + 1});
  if (m_flow == FlowControl::None) return std::min(next, from);
  if (m_flow == FlowControl::Holds) {
    return std::min(next, room(vc_for(front), from, front, now));
  }
  CreditCounter& credits = m_credits[vc_for(front)];
  const Cycle ready = credits.when({from, front.wire_flits()});
  if (ready == kNever) credits.mark_waited_on();  // the credit return will wake us
  return std::min(next, ready);
}

// What `request` asks of injection VC `vc`'s buffer from `from`: room for its flits (at most the
// whole buffer), a train's as lanes of its packets, as many as the buffer takes at once.
BufferClaim EndpointCore::claim(VcId vc, const PacketRequest& request, Cycle from) const {
  const int capacity = m_credits[vc].capacity();
  const int packet = std::min(kHeaderFlits + request.data_flits, capacity);
  if (request.train == 1) return {from, packet, packet};
  const int lanes = std::clamp(capacity / packet, 1, static_cast<int>(request.train));
  return {from, packet, packet, 1, lanes, m_channel.serialization(packet)};
}

// The first cycle from `from` at which injection VC `vc` has room for `request`, from the holds
// of the packets sent before.
Cycle EndpointCore::room(VcId vc, Cycle from, const PacketRequest& request, Cycle now) {
  const int flits = request.wire_flits();
  // With the holds unchanged, an answer `at` for `from` is also the answer for any later `from`
  // up to `at`, at any later cycle: the occupancy falls only at releases, none before `at` made
  // room, and what a later cycle forgets had ended by then (a packet's span here is one cycle
  // and, between calls, no hold is open).
  if (m_room && m_room->vc == vc && m_room->flits == flits && m_room->train == request.train &&
      m_room->from <= from && from <= m_room->at) {
    return m_room->at;
  }
  const Cycle at = m_holds[vc].earliest(claim(vc, request, from), m_credits[vc].capacity(), now);
  m_room = RoomAnswer{vc, from, flits, request.train, at};
  return at;
}

bool EndpointCore::return_credits(VcId vc, int flits, Cycle at) {
  return m_credits[vc].add(at, flits);
}

void EndpointCore::deliver(Packet* packet) {
  // The ledger accounts for the point-to-point packets endpoints inject; the collective
  // workloads check their own deliveries (every copy, every result) through the observer.
  if (packet->header.kind == PacketKind::Write) m_ledger.delivered(*packet, m_id);
  m_observer.delivered(*packet, m_id);
  m_pool.release(packet);
}

}  // namespace angara
