#include "workloads/collective/collective_workload.h"

#include <fmt/format.h>

#include <array>
#include <systemc>
#include <utility>

#include "models/core/collective_format.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "workloads/collective/collective_inputs.h"
#include "workloads/synthetic/synthetic_traffic.h"

namespace angara {
namespace {

// A packet's payload in 64-bit words.
std::size_t words_per_packet(const WorkloadParams& wl) {
  return static_cast<std::size_t>(2 * wl.payload_flits);
}

// A request's tag: which target tree (job) and which operation.
std::uint32_t tag_of(int job, int k) {
  return static_cast<std::uint32_t>(job << 20 | k);
}
int job_in(std::uint32_t tag) {
  return static_cast<int>(tag >> 20);
}
int op_in(std::uint32_t tag) {
  return static_cast<int>(tag & ((1U << 20) - 1));
}

}  // namespace

// One node's processor: its queue of collective packets, its window of reduces in flight per
// tree, and the point-to-point background traffic beside them, handed out in creation order.
class CollectiveWorkload::Source : public TrafficSource {
 public:
  Source(CollectiveWorkload& w, NodeId node, std::unique_ptr<TrafficSource> background)
      : m_w(w), m_node(node), m_background(std::move(background)) {}

  void add(const PacketRequest& r) { m_queue.push_back(r); }
  // A credit report reaches the processor now. AT counts it from the next cycle: what a node
  // does at a cycle must not depend on which of its modules SystemC ran first in that cycle.
  void report(const ReduceReport& completed) {
    if (!m_w.m_reports_next_cycle) {
      m_completed = completed;
      return;
    }
    m_reports.push_back({sc_core::sc_time_stamp(), completed});
  }

  std::optional<PacketRequest> next() override {
    while (!m_reports.empty() && m_reports.front().first < sc_core::sc_time_stamp()) {
      m_completed = m_reports.front().second;
      m_reports.pop_front();
    }
    if (m_background && !m_background_next) m_background_next = m_background->next();
    const bool collective = !m_queue.empty() && window_open(m_queue.front());
    if (collective &&
        (!m_background_next || m_queue.front().created <= m_background_next->created)) {
      const PacketRequest r = m_queue.front();
      m_queue.pop_front();
      if (r.kind == PacketKind::Reduce) ++m_issued[tree_of(r)];
      return r;
    }
    return std::exchange(m_background_next, std::nullopt);
  }

  void put_back(const PacketRequest& r) override {
    if (r.kind == PacketKind::Write) {
      m_background_next = r;
      return;
    }
    if (r.kind == PacketKind::Reduce) --m_issued[tree_of(r)];
    m_queue.push_front(r);
  }

  void fill(Packet& p, const PacketRequest& r) override {
    if (r.kind == PacketKind::Write) {
      fill_check_pattern(p);
      return;
    }
    const auto& wl = m_w.m_workload;
    const int k = op_in(r.tag), tree = tree_of(r);
    p.header.tree_id = static_cast<std::uint8_t>(tree);
    p.header.reduce_id = static_cast<std::uint8_t>(k % kReducesPerTree);
    // A broadcast carries its source's inputs, a reduce packet its processor's contribution.
    if (r.kind == PacketKind::Reduce) {
      p.header.op = ReduceOp{wl.reduction, wl.op == CollectiveOp::Allreduce}.encode();
    }
    const auto words =
        collective_inputs(m_w.m_seed, words_per_packet(m_w.m_workload), k, tree, m_node);
    for (std::size_t i = 0; i < words.size(); ++i) {
      set_word(p.data[i / 2], static_cast<int>(i % 2), words[i]);
    }
  }

 private:
  int tree_of(const PacketRequest& r) const { return m_w.m_jobs[job_in(r.tag)].target.tree.id; }
  // At most collective.reduces_in_flight reduces of a tree in flight, by the router's last report.
  bool window_open(const PacketRequest& r) const {
    if (r.kind != PacketKind::Reduce) return true;
    const int t = tree_of(r);
    return m_issued[t] - m_completed[t] < m_w.m_window;
  }

  CollectiveWorkload& m_w;
  NodeId m_node;
  std::deque<PacketRequest> m_queue;
  std::array<std::uint32_t, kMaxTrees> m_issued{};
  ReduceReport m_completed{};
  std::deque<std::pair<sc_core::sc_time, ReduceReport>> m_reports;  // not counted yet
  std::unique_ptr<TrafficSource> m_background;
  std::optional<PacketRequest> m_background_next;
};

CollectiveWorkload::CollectiveWorkload(const WorkloadParams& workload, const TrafficParams& traffic,
                                       std::uint64_t seed, const Topology& topology,
                                       std::vector<Target> targets, int reduces_in_flight)
    : m_workload(workload),
      m_traffic(traffic),
      m_seed(seed),
      m_window(static_cast<std::uint32_t>(reduces_in_flight)),
      m_nodes(topology.node_count()) {
  m_traffic.pattern = TrafficPattern::Uniform;
  m_traffic.injection = InjectionProcess::Bernoulli;
  m_traffic.rate = workload.background_rate;
  m_background = std::make_unique<Destinations>(topology, m_traffic, seed);
  for (Target& t : targets) {
    Job job;
    for (NodeId n = 0; n < static_cast<NodeId>(t.tree.rows.size()); ++n) {
      if (t.tree.rows[n].member && t.tree.rows[n].pe) job.pe_nodes.push_back(n);
    }
    const int pe = static_cast<int>(job.pe_nodes.size());
    switch (m_workload.op) {
      case CollectiveOp::Broadcast:
        job.expected = pe - (t.tree.rows[t.source].pe ? 1 : 0);
        break;
      case CollectiveOp::Reduce:
        job.expected = 1;
        break;
      case CollectiveOp::Allreduce:
      case CollectiveOp::Allgather:  // these two refused by WorkloadParams::validate
      case CollectiveOp::ReduceScatter:
        job.expected = pe;
        break;
    }
    job.target = std::move(t);
    m_jobs.push_back(std::move(job));
  }
}

CollectiveWorkload::~CollectiveWorkload() = default;

int CollectiveWorkload::pe_nodes() const {
  int n = 0;
  for (const Job& j : m_jobs) n += static_cast<int>(j.pe_nodes.size());
  return n;
}

std::vector<std::unique_ptr<TrafficSource>> CollectiveWorkload::make_sources() {
  std::vector<std::unique_ptr<TrafficSource>> sources;
  const auto& wl = m_workload;
  for (NodeId n = 0; n < static_cast<NodeId>(m_nodes); ++n) {
    std::unique_ptr<TrafficSource> background;
    if (wl.background_rate > 0) {
      background = std::make_unique<SyntheticTraffic>(n, *m_background, m_traffic, m_seed);
    }
    auto s = std::make_unique<Source>(*this, n, std::move(background));
    m_sources.push_back(s.get());
    sources.push_back(std::move(s));
  }
  return sources;
}

void CollectiveWorkload::start(int k, Cycle at) {
  if (k != m_started) throw std::logic_error("collective operations start in order");
  ++m_started;
  const auto& wl = m_workload;
  for (int j = 0; j < static_cast<int>(m_jobs.size()); ++j) {
    Job& job = m_jobs[j];
    const Target& t = job.target;
    Op op;
    op.start = at;
    op.got.assign(t.tree.rows.size(), false);
    PacketRequest r{t.destination, wl.payload_flits, at, PacketKind::Reduce, tag_of(j, k)};
    if (wl.op == CollectiveOp::Broadcast) {
      r.kind = PacketKind::Broadcast;
      op.words = collective_inputs(m_seed, words_per_packet(wl), k, t.tree.id, t.source);
      m_sources[t.source]->add(r);
      if (m_wake) m_wake(t.source);
    } else {
      for (NodeId n : job.pe_nodes) {
        const auto in = collective_inputs(m_seed, words_per_packet(wl), k, t.tree.id, n);
        if (op.words.empty()) {
          op.words = in;
        } else {
          for (std::size_t i = 0; i < in.size(); ++i) {
            op.words[i] = reference_reduce(wl.reduction, op.words[i], in[i]);
          }
        }
        m_sources[n]->add(r);
        if (m_wake) m_wake(n);
      }
    }
    job.ops.push_back(std::move(op));
  }
}

std::vector<std::uint64_t> CollectiveWorkload::received_here() const {
  std::vector<std::uint64_t> counts;
  for (int k = 0; k < m_started; ++k) {
    for (const Job& j : m_jobs) counts.push_back(static_cast<std::uint64_t>(j.ops[k].received));
  }
  return counts;
}

std::vector<std::uint64_t> CollectiveWorkload::done_here() const {
  std::vector<std::uint64_t> cycles;
  for (int k = 0; k < m_started; ++k) {
    for (const Job& j : m_jobs) cycles.push_back(j.ops[k].done);
  }
  return cycles;
}

void CollectiveWorkload::take_totals(const std::vector<std::uint64_t>& received,
                                     const std::vector<std::uint64_t>& done) {
  std::size_t i = 0;
  for (int k = 0; k < m_started; ++k) {
    for (Job& j : m_jobs) {
      j.ops[k].received_total = received.at(i);
      j.ops[k].done_total = done.at(i++);
    }
  }
}

bool CollectiveWorkload::complete(int k) const {
  for (const Job& j : m_jobs) {
    if (j.ops.at(k).received_total != static_cast<std::uint64_t>(j.expected)) return false;
  }
  return true;
}

Cycle CollectiveWorkload::completion_cycles(int k) const {
  Cycle done = 0;
  for (const Job& j : m_jobs) done = std::max(done, j.ops.at(k).done_total);
  return done - m_jobs.front().ops.at(k).start;
}

std::uint64_t CollectiveWorkload::results_digest() const {
  ResultDigest digest;
  for (int k = 0; k < m_started; ++k) {
    for (const Job& j : m_jobs) {
      const Op& op = j.ops.at(k);
      digest.add(op.received_total > 0 ? op.words : std::vector<std::int64_t>{});
    }
  }
  return digest.value();
}

void CollectiveWorkload::expect(bool condition, const Packet& p, NodeId at,
                                const char* what) const {
  if (condition) return;
  model_error(
      report_id::kCollective,
      fmt::format("collective {} of tree {} (reduce id {}) at node {}: {}",
                  static_cast<int>(p.header.kind), p.header.tree_id, p.header.reduce_id, at, what));
}

CollectiveWorkload::Job& CollectiveWorkload::job_of(const Packet& p) {
  for (Job& j : m_jobs) {
    if (j.target.tree.id == p.header.tree_id) return j;
  }
  model_error(
      report_id::kCollective,
      fmt::format("a collective packet on tree {}, which runs no operation", p.header.tree_id));
}

// The oldest operation on the job's tree with this packet's ReduceId that has not delivered to
// node `at` yet (at most 16 are in flight per tree, and a node gets each operation's delivery
// before the 16th next one's). A second delivery of one operation is taken for the next with its
// ReduceId, whose words differ, or for none: either is an error below.
CollectiveWorkload::Op& CollectiveWorkload::op_of(Job& job, const Packet& p, NodeId at) {
  for (Op& op : job.ops) {
    const auto k = static_cast<int>(&op - job.ops.data());
    if (k % kReducesPerTree == p.header.reduce_id && !op.got[at]) return op;
  }
  model_error(report_id::kCollective,
              fmt::format("a collective packet (tree {}, reduce id {}) for no open operation",
                          p.header.tree_id, p.header.reduce_id));
}

void CollectiveWorkload::delivered(const Packet& p, NodeId at) {
  if (p.header.kind == PacketKind::Write) return;   // background traffic: the ledger checks it
  if (p.header.kind == PacketKind::ReduceReport) {  // from this node's router
    m_sources.at(at)->report(unpack_report(p));
    if (m_wake) m_wake(at);
    return;
  }
  ++m_delivered;
  Job& job = job_of(p);
  Op& op = op_of(job, p, at);
  const auto& wl = m_workload;
  const Target& t = job.target;
  expect(t.tree.rows[at].pe, p, at, "delivered to a transit node or a node outside the tree");
  if (wl.op == CollectiveOp::Broadcast) {
    expect(p.header.kind == PacketKind::Broadcast && at != t.source, p, at,
           "a broadcast must reach every processor but its source");
  } else {
    expect(p.header.kind == (wl.op == CollectiveOp::Reduce ? PacketKind::ReduceResult
                                                           : PacketKind::AllreduceResult),
           p, at, "unexpected packet kind for this operation");
    expect(wl.op == CollectiveOp::Allreduce || at == t.destination, p, at,
           "the reduce result reached another node than its destination");
  }
  expect(p.header.data_flits == wl.payload_flits, p, at, "wrong payload length");
  std::vector<std::int64_t> got(op.words.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    got[i] = word(p.data[i / 2], static_cast<int>(i % 2));
  expect(got == op.words, p, at,
         wl.op == CollectiveOp::Broadcast ? "broadcast payload corrupted"
                                          : "the result differs from the reduction of the inputs");
  op.got[at] = true;
  ++op.received;
  op.done = std::max(op.done, p.tail_at);
}

}  // namespace angara
