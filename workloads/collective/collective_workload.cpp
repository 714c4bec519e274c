#include "workloads/collective/collective_workload.h"

#include <fmt/format.h>

#include <utility>

#include "collectives/credit_block.h"
#include "collectives/reduction.h"
#include "models/core/packet_ledger.h"
#include "models/core/rng.h"
#include "workloads/synthetic/uniform_traffic.h"

namespace angara {

// One node's processor: its queue of collective packets, its window of reduces in flight, and
// the point-to-point background traffic beside them, handed out in creation order.
class CollectiveWorkload::Source : public TrafficSource {
 public:
  Source(CollectiveWorkload& w, NodeId node, std::unique_ptr<TrafficSource> background)
      : m_w(w), m_node(node), m_background(std::move(background)) {}

  void add(const PacketRequest& r) { m_queue.push_back(r); }
  void report(const ReduceReport& completed) { m_completed = completed[m_w.m_tree.id]; }

  std::optional<PacketRequest> next() override {
    if (m_background && !m_background_next) m_background_next = m_background->next();
    const bool collective = !m_queue.empty() && window_open();
    if (collective &&
        (!m_background_next || m_queue.front().created <= m_background_next->created)) {
      if (m_queue.front().kind == PacketKind::Reduce) ++m_issued;
      const PacketRequest r = m_queue.front();
      m_queue.pop_front();
      return r;
    }
    return std::exchange(m_background_next, std::nullopt);
  }

  void put_back(const PacketRequest& r) override {
    if (r.kind == PacketKind::Write) {
      m_background_next = r;
      return;
    }
    if (r.kind == PacketKind::Reduce) --m_issued;
    m_queue.push_front(r);
  }

  void fill(Packet& p, const PacketRequest& r) override {
    if (r.kind == PacketKind::Write) {
      fill_check_pattern(p);
      return;
    }
    const int k = static_cast<int>(r.tag);
    const auto& wl = m_w.m_config.workload;
    p.header.tree_id = static_cast<std::uint8_t>(m_w.m_tree.id);
    p.header.reduce_id = static_cast<std::uint8_t>(k % kReducesPerTree);
    if (r.kind == PacketKind::Broadcast) {
      fill_check_pattern(p);
      return;
    }
    p.header.op = ReduceOp{wl.reduction, wl.op == CollectiveOp::Allreduce}.encode();
    const auto words = m_w.inputs(k, m_node);
    for (std::size_t i = 0; i < words.size(); ++i) {
      set_word(p.data[i / 2], static_cast<int>(i % 2), words[i]);
    }
  }

 private:
  // At most 16 reduces of the tree in flight, by the router's last report.
  bool window_open() const {
    return m_queue.front().kind != PacketKind::Reduce || m_issued - m_completed < kReducesPerTree;
  }

  CollectiveWorkload& m_w;
  NodeId m_node;
  std::deque<PacketRequest> m_queue;
  std::uint32_t m_issued = 0, m_completed = 0;
  std::unique_ptr<TrafficSource> m_background;
  std::optional<PacketRequest> m_background_next;
};

CollectiveWorkload::CollectiveWorkload(const Config& config, const Tree& tree, NodeId source,
                                       NodeId destination)
    : m_config(config), m_tree(tree), m_source(source), m_destination(destination) {
  for (NodeId n = 0; n < static_cast<NodeId>(tree.rows.size()); ++n) {
    if (tree.rows[n].member && tree.rows[n].pe) m_pe_nodes.push_back(n);
  }
  switch (config.workload.op) {
    case CollectiveOp::Broadcast:
      m_expected = static_cast<int>(m_pe_nodes.size()) - (tree.rows[source].pe ? 1 : 0);
      break;
    case CollectiveOp::Reduce:
      m_expected = 1;
      break;
    case CollectiveOp::Allreduce:
      m_expected = static_cast<int>(m_pe_nodes.size());
      break;
  }
}

CollectiveWorkload::~CollectiveWorkload() = default;

std::vector<std::unique_ptr<TrafficSource>> CollectiveWorkload::make_sources() {
  std::vector<std::unique_ptr<TrafficSource>> sources;
  for (NodeId n = 0; n < static_cast<NodeId>(m_tree.rows.size()); ++n) {
    std::unique_ptr<TrafficSource> background;
    const auto& wl = m_config.workload;
    if (wl.background_rate > 0) {
      TrafficParams t = m_config.traffic;
      t.rate = wl.background_rate;
      background = std::make_unique<UniformTraffic>(n, static_cast<int>(m_tree.rows.size()), t,
                                                    m_config.sim.seed);
    }
    auto s = std::make_unique<Source>(*this, n, std::move(background));
    m_sources.push_back(s.get());
    sources.push_back(std::move(s));
  }
  return sources;
}

// The expected result is computed here on its own, not with the model's reduction code.
std::int64_t CollectiveWorkload::reference(Reduction op, std::int64_t a, std::int64_t b) {
  if (op == Reduction::Min) return a < b ? a : b;
  if (op == Reduction::Max) return a < b ? b : a;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

std::vector<std::int64_t> CollectiveWorkload::inputs(int k, NodeId node) const {
  Rng rng(m_config.sim.seed, (static_cast<std::uint64_t>(k) << 20) + node + 1);
  std::vector<std::int64_t> words(static_cast<std::size_t>(2 * m_config.workload.payload_flits));
  for (auto& w : words) w = static_cast<std::int64_t>(rng.next());
  return words;
}

void CollectiveWorkload::start(int k, Cycle at) {
  if (k != operations()) throw std::logic_error("collective operations start in order");
  Op op;
  op.start = at;
  op.got.assign(m_tree.rows.size(), false);
  const auto& wl = m_config.workload;
  PacketRequest r{m_destination, wl.payload_flits, at, PacketKind::Reduce,
                  static_cast<std::uint32_t>(k)};
  if (wl.op == CollectiveOp::Broadcast) {
    r.kind = PacketKind::Broadcast;
    m_sources[m_source]->add(r);
    if (m_wake) m_wake(m_source);
  } else {
    for (NodeId n : m_pe_nodes) {
      const auto in = inputs(k, n);
      if (op.words.empty()) {
        op.words = in;
      } else {
        for (std::size_t i = 0; i < in.size(); ++i)
          op.words[i] = reference(wl.reduction, op.words[i], in[i]);
      }
      m_sources[n]->add(r);
      if (m_wake) m_wake(n);
    }
  }
  m_ops.push_back(std::move(op));
}

bool CollectiveWorkload::complete(int k) const {
  return m_ops.at(k).received == m_expected;
}

Cycle CollectiveWorkload::completion_cycles(int k) const {
  return m_ops.at(k).done - m_ops.at(k).start;
}

void CollectiveWorkload::expect(bool condition, const Packet& p, NodeId at,
                                const char* what) const {
  if (condition) return;
  throw ModelError(fmt::format("collective {} of tree {} (reduce id {}) at node {}: {}",
                               static_cast<int>(p.header.kind), p.header.tree_id,
                               p.header.reduce_id, at, what));
}

// The oldest operation still open with this packet's ReduceId (at most 16 are in flight).
CollectiveWorkload::Op& CollectiveWorkload::op_of(const Packet& p) {
  for (int k = 0; k < operations(); ++k) {
    if (k % kReducesPerTree == p.header.reduce_id && !complete(k)) return m_ops[k];
  }
  throw ModelError(
      fmt::format("a collective packet (reduce id {}) for no open operation", p.header.reduce_id));
}

void CollectiveWorkload::delivered(const Packet& p, NodeId at) {
  if (p.header.kind == PacketKind::Write) return;  // background traffic: the ledger checks it
  if (p.header.kind == PacketKind::Credit) {       // a credit report from this node's router
    m_sources.at(at)->report(unpack_report(p));
    if (m_wake) m_wake(at);
    return;
  }
  ++m_delivered;
  Op& op = op_of(p);
  const auto& wl = m_config.workload;
  expect(!op.got[at], p, at, "delivered twice to this node");
  expect(m_tree.rows[at].pe, p, at, "delivered to a transit node or a node outside the tree");
  if (wl.op == CollectiveOp::Broadcast) {
    expect(p.header.kind == PacketKind::Broadcast && at != m_source, p, at,
           "a broadcast must reach every processor but its source");
    expect(check_pattern_intact(p), p, at, "broadcast payload corrupted");
  } else {
    expect(p.header.kind ==
               (wl.op == CollectiveOp::Reduce ? PacketKind::ReduceResult : PacketKind::Broadcast),
           p, at, "unexpected packet kind for this operation");
    expect(wl.op == CollectiveOp::Allreduce || at == m_destination, p, at,
           "the reduce result reached another node than its destination");
    for (std::size_t i = 0; i < op.words.size(); ++i) {
      expect(word(p.data[i / 2], static_cast<int>(i % 2)) == op.words[i], p, at,
             "the result differs from the reduction of the inputs");
    }
  }
  op.got[at] = true;
  ++op.received;
  op.done = std::max(op.done, p.tail_at);
}

}  // namespace angara
