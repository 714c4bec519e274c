#include "models/endpoint/endpoint_core.h"

#include <algorithm>

namespace angara {

EndpointCore::EndpointCore(NodeId id, TrafficSource& source, TrafficObserver& observer,
                           PacketLedger& ledger, PacketPool& pool, const RouterParams& router,
                           const ChannelTiming& channel)
    : m_id(id),
      m_source(source),
      m_observer(observer),
      m_ledger(ledger),
      m_pool(pool),
      m_channel(channel),
      m_vc_sets(router.vcs / router.vc_classes()),
      m_vc_classes(router.vc_classes()),
      m_next(source.next()),
      m_stop(kNever),
      m_credits(router.vcs, CreditCounter(router.buffer_flits)) {}

void EndpointCore::pull_created(Cycle now) {
  while (m_next && m_next->created <= now && m_next->created < m_stop) {
    m_observer.created(*m_next);
    m_queue.push_back(*m_next);
    m_next = m_source.next();
  }
}

// Packets take the VC sets in turn, starting in class 0.
VcId EndpointCore::next_vc() const {
  return static_cast<VcId>((m_sent % m_vc_sets) * m_vc_classes);
}

Packet* EndpointCore::inject(Cycle now) {
  pull_created(now);
  if (m_queue.empty() || m_channel_free > now) return nullptr;
  const VcId vc = next_vc();
  const int flits = kHeaderFlits + m_queue.front().data_flits;
  if (m_credits[vc].at(now) < flits) return nullptr;
  m_credits[vc].consume(flits);
  return start_packet(now);
}

Packet* EndpointCore::inject_unchecked(Cycle horizon) {
  pull_created(horizon - 1);
  if (m_queue.empty()) return nullptr;
  const Cycle start = std::max(m_queue.front().created, m_channel_free);
  return start < horizon ? start_packet(start) : nullptr;
}

Packet* EndpointCore::start_packet(Cycle start) {
  const PacketRequest& req = m_queue.front();
  const VcId vc = next_vc();
  const int flits = kHeaderFlits + req.data_flits;
  Packet* p = m_pool.acquire();
  p->header.kind = PacketKind::Write;
  p->header.src = m_id;
  p->header.dst = req.dst;
  p->header.data_flits = static_cast<std::uint8_t>(req.data_flits);
  p->header.vc = vc;
  p->header.seq = PacketLedger::sequence(m_id, m_sent);
  fill_check_pattern(*p);
  p->created = req.created;
  p->head_at = start + m_channel.latency + m_channel.serialization(1);
  p->tail_at = start + m_channel.latency + m_channel.serialization(flits);
  m_queue.pop_front();
  m_channel_free = start + m_channel.serialization(flits);
  ++m_sent;
  m_ledger.injected(*p);
  return p;
}

Cycle EndpointCore::next_wakeup(Cycle now) {
  Cycle next = (m_next && m_next->created < m_stop) ? std::max(m_next->created, now + 1) : kNever;
  if (m_queue.empty()) return next;
  auto& credits = m_credits[next_vc()];
  const Cycle ready =
      credits.when(std::max(m_channel_free, now + 1), kHeaderFlits + m_queue.front().data_flits);
  if (ready == kNever) credits.mark_waited_on();  // the credit return will wake us
  return std::min(next, ready);
}

Cycle EndpointCore::next_start() const {
  if (!m_queue.empty()) return std::max(m_queue.front().created, m_channel_free);
  if (m_next && m_next->created < m_stop) return std::max(m_next->created, m_channel_free);
  return kNever;
}

bool EndpointCore::return_credits(VcId vc, int flits, Cycle at) {
  return m_credits[vc].add(at, flits);
}

void EndpointCore::deliver(Packet* packet) {
  m_ledger.delivered(*packet, m_id);
  m_observer.delivered(*packet);
  m_pool.release(packet);
}

}  // namespace angara
