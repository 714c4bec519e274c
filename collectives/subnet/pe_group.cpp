#include "collectives/subnet/pe_group.h"

#include <fmt/format.h>
#include <algorithm>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"

namespace angara {

PeGroup::PeGroup(NodeId node, const TreeSet& trees, const CollectiveParams& params,
                 PacketPool& pool, bool in_order, std::unique_ptr<ReducerBlock> reducer)
    : m_node(node),
      m_trees(trees),
      m_params(params),
      m_pool(pool),
      m_in_order(in_order),
      m_reducer(reducer ? std::move(reducer) : std::make_unique<ModelReducer>()),
      m_credits(params) {
  if (!m_reducer->drives()) return;
  m_reducer->set_hand_off([this](Packet* result, Cycle cycle) {
    m_handed_off.push_back({result, cycle});
    trace_reduces(result->header.tree_id, cycle);
    if (m_wake) m_wake(cycle);
  });
}

const TreeRow& PeGroup::row(int tree) const {
  return member_row(m_trees, m_node, tree);
}

Cycle PeGroup::broadcaster(Cycle at, const Packet& p) {
  const Cycle start = std::max(at, m_broadcaster_free);
  m_broadcaster_free = start + m_params.broadcaster_cycles * static_cast<Cycle>(p.train);
  if (m_trace) {
    trace_busy(m_trace->broadcaster_valid, m_trace->broadcaster_packet, p, start,
               m_broadcaster_free);
  }
  return m_broadcaster_free;
}

void PeGroup::trace_busy(Tracer::Signal valid, Tracer::Signal packet, const Packet& p, Cycle start,
                         Cycle end) {
  if (valid < 0) return;
  Tracer& t = *m_trace->tracer;
  t.change(valid, start, 1);
  t.change(packet, start, trace_id(p));
  t.change(valid, end, 0);
  t.change(packet, end, 0);
}

void PeGroup::trace_reduces(int tree, Cycle at) {
  if (m_trace && m_trace->reduces[tree] >= 0) {
    m_trace->tracer->change(m_trace->reduces[tree], at,
                            static_cast<std::uint64_t>(m_reducer->busy(tree)));
  }
}

void PeGroup::trace_up_credits(int tree, Cycle at) {
  if (m_trace && m_trace->up_credits[tree] >= 0) {
    m_trace->tracer->change(m_trace->up_credits[tree], at,
                            static_cast<std::uint64_t>(m_credits.up_credits(tree)));
  }
}

void PeGroup::accept(Packet* p, bool from_pe, Cycle at, std::vector<CollectiveSend>& out) {
  const Cycle routed = at + m_params.route_cycles;
  const int tree = p->header.tree_id;
  const TreeRow& r = row(tree);
  switch (p->header.kind) {
    case PacketKind::Reduce:
      reduce(p, routed, out);
      return;
    case PacketKind::UpCredit:  // from the parent: credit_batch more reduce results may go up
      m_credits.credit_from_parent(tree);
      trace_up_credits(tree, routed);
      m_pool.release(p);
      while (!m_waiting_up[tree].empty() && m_credits.can_send_up(tree)) {
        Packet* result = m_waiting_up[tree].front();
        m_waiting_up[tree].pop_front();
        send_result(result, routed, out);
      }
      return;
    case PacketKind::AllreduceResult:  // at a leaf with no processor: it ends here
      m_pool.release(p);
      return;
    case PacketKind::Broadcast:
      if (!from_pe) {  // a broadcast back at its source with no children: it ends here
        m_pool.release(p);
        return;
      }
      // At the root it spreads down; elsewhere it first goes up to the root as a request.
      if (r.is_root) {
        out.push_back({p, Toward::Down, broadcaster(routed, *p)});
      } else {
        p->header.kind = PacketKind::BroadcastRequest;
        out.push_back({p, Toward::Up, broadcaster(routed, *p)});
      }
      return;
    default:
      break;
  }
  model_error(
      report_id::kCollective,
      fmt::format("node {}: the PEGroup cannot take a packet of kind {} from {}", m_node,
                  static_cast<int>(p->header.kind), from_pe ? "the processor" : "the network"));
}

void PeGroup::reduce(Packet* p, Cycle at, std::vector<CollectiveSend>& out) {
  const int tree = p->header.tree_id;
  const Cycle cost = m_params.reducer_cycles +
                     static_cast<Cycle>(m_params.reducer_flit_cycles) * p->header.data_flits;
  // In time order (AT) the Reducer takes contributions one after another as they come. Out of
  // order (LT, initiators running ahead) a reduce's own contributions are replayed in time order
  // through a free Reducer when the last one is in: equal at zero load, other reduces ignored.
  // A Reducer that drives times itself: these cycles are the model's, for its checks.
  Cycle start = 0;
  if (m_in_order) {
    start = std::max(at, m_reducer_free);
    m_reducer_free = start + cost;
    if (m_trace && !m_reducer->drives())
      trace_busy(m_trace->reducer_valid, m_trace->reducer_packet, *p, start, m_reducer_free);
  }
  const auto outcome = m_reducer->add(p, row(tree), at, start, m_in_order ? m_reducer_free : 0);
  const Cycle pipeline = outcome.result ? m_params.reducer_result_cycles : 0;
  trace_reduces(tree, m_reducer->drives() ? at : m_reducer_free + pipeline);
  if (outcome.consumed) m_pool.release(outcome.consumed);
  if (!outcome.result) return;
  if (m_in_order) {  // it leaves when the Reducer hands it off (on_timer), after what is due before
    m_handed_off.push_back({outcome.result, m_reducer_free + pipeline});
    return;
  }
  m_reducer_free = 0;
  for (int i = 0; i < outcome.count; ++i) {
    m_reducer_free = std::max(m_reducer_free, outcome.arrivals[i]) + cost;
  }
  leave(outcome.result, m_reducer_free + pipeline, out);
}

void PeGroup::leave(Packet* result, Cycle ready, std::vector<CollectiveSend>& out) {
  const int tree = result->header.tree_id;
  if (!row(tree).is_root && !m_credits.can_send_up(tree)) {
    m_waiting_up[tree].push_back(result);  // the parent's credit will release it
    return;
  }
  send_result(result, ready, out);
}

// A finished reduce leaves: up at a non-root node; at the root down the tree (allreduce) or
// point-to-point to its destination (reduce), without ejection at the root.
void PeGroup::send_result(Packet* result, Cycle ready, std::vector<CollectiveSend>& out) {
  const int tree = result->header.tree_id;
  const TreeRow& r = row(tree);
  if (!r.is_root) {
    m_credits.sent_up(tree);
    trace_up_credits(tree, ready);
    out.push_back({result, Toward::Up, ready});
  } else if (ReduceOp::decode(result->header.op).all) {
    result->header.kind = PacketKind::AllreduceResult;
    result->header.src = m_node;
    if (r.pe) {
      Packet* mine = m_pool.acquire();
      *mine = *result;
      out.push_back({mine, Toward::Pe, ready});
    }
    if (r.dir_sum > 0) {
      out.push_back({result, Toward::Down, ready});
    } else {
      m_pool.release(result);
    }
  } else {
    result->header.kind = PacketKind::ReduceResult;
    result->header.src = m_node;
    out.push_back({result, result->header.dst == m_node ? Toward::Pe : Toward::Point, ready});
  }
  result_left(tree, ready, out);
}

void PeGroup::result_left(int tree, Cycle ready, std::vector<CollectiveSend>& out) {
  if (m_credits.result_left(tree, ready) && row(tree).dir_sum > 0) {
    Packet* credit = new_packet(PacketKind::UpCredit, tree);
    out.push_back({credit, Toward::Down, broadcaster(ready, *credit)});
  }
  if (m_credits.report_due(ready)) report(ready, out);
}

int PeGroup::reduces_in_flight(int tree) const {
  int n = m_reducer->busy(tree);
  for (std::size_t i = 0; i < m_handed_off.size(); ++i) {
    if (m_handed_off[i].result->header.tree_id == tree) ++n;
  }
  return n;
}

Cycle PeGroup::next_timer() const {
  const Cycle report = m_credits.report_deadline();
  return m_handed_off.empty() ? report : std::min(report, m_handed_off.front().ready);
}

void PeGroup::on_timer(Cycle now, std::vector<CollectiveSend>& out) {
  while (!m_handed_off.empty() && m_handed_off.front().ready <= now) {
    const HandedOff h = m_handed_off.front();
    m_handed_off.pop_front();
    leave(h.result, h.ready, out);
  }
  if (m_credits.report_due(now)) report(now, out);
}

void PeGroup::report(Cycle now, std::vector<CollectiveSend>& out) {
  Packet* p = new_packet(PacketKind::ReduceReport, 0);
  pack_report(m_credits.take_report(), *p);
  out.push_back({p, Toward::Pe, broadcaster(now, *p)});
}

Packet* PeGroup::new_packet(PacketKind kind, int tree) {
  Packet* p = m_pool.acquire();
  p->header.kind = kind;
  p->header.src = m_node;
  p->header.dst = m_node;
  p->header.tree_id = static_cast<std::uint8_t>(tree);
  p->header.set_sequence(m_made++);
  return p;
}

}  // namespace angara
