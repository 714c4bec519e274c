#include "platform/experiments/software_experiment.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "collectives/software/chunked_collectives.h"
#include "collectives/software/software_collectives.h"
#include "collectives/software/subnet_collectives.h"
#include "models/core/config_error.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "models/node/collective_port.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/tree_checks.h"
#include "platform/machine/node_machine.h"
#include "platform/machine/system.h"
#include "workloads/collective/collective_inputs.h"

namespace angara {
namespace {

// Whether `node`'s processor takes part in `tree` (a member with pe, not a transit node).
bool processor_of(const Tree& tree, NodeId node) {
  return tree.rows[node].member && tree.rows[node].pe;
}

const char* op_label(CollectiveOp op) {
  constexpr const char* kNames[] = {"broadcast", "reduce", "allreduce", "allgather",
                                    "reduce-scatter"};
  return kNames[static_cast<int>(op)];
}

// Runs the operations on every node and checks them. The gate: each node's program waits on its
// own CpuSignal before operation k; once every node has finished operation k-1, the machine's
// barrier notifies every gate at one cycle (a link's latency plus a flit after the last), so
// operation k starts at the same cycle everywhere, and its time is counted from there.
class Harness {
 public:
  Harness(const Config& config, NodeMachine& machine, const Tree* tree, NodeId source,
          NodeId destination)
      : m_config(config),
        m_wl(config.workload),
        m_machine(machine),
        m_tree(tree),
        m_source(source),
        m_destination(destination),
        m_nodes(machine.nodes()),
        m_count(static_cast<std::size_t>(m_wl.operation_bytes()) / sizeof(std::int64_t)),
        m_blank(m_wl.values ? 0 : static_cast<std::size_t>(m_wl.operation_bytes())),
        m_gates(static_cast<std::size_t>(m_nodes)),
        m_start(static_cast<std::size_t>(m_wl.repetitions), 0),
        m_last(static_cast<std::size_t>(m_wl.repetitions), 0),
        m_checked(static_cast<std::size_t>(m_wl.repetitions), 0) {
    for (CpuSignal& gate : m_gates) gate.notify(0);  // operation 0 starts at once
    machine.barrier().on_release([this](Cycle at) {
      m_start[++m_started] = at;
      for (CpuSignal& gate : m_gates) gate.notify(at);
    });
  }

  Task program(NodeId node);
  // The trees a subnet allgather spreads its broadcasts over; those a subnet allreduce or
  // broadcast is cut across.
  void set_allgather_trees(std::vector<int> trees) { m_allgather_trees = std::move(trees); }
  void set_subnet_trees(std::vector<int> trees) { m_subnet_trees = std::move(trees); }

  // Whose result is checked: the nodes that receive something (as in the hardware experiment:
  // a broadcast's source and transit nodes get nothing).
  bool checked(NodeId node) const {
    if (!m_wl.values) return false;
    const bool pe = m_tree == nullptr || is_pe(node);
    switch (m_wl.op) {
      case CollectiveOp::Broadcast:
        return pe && node != m_source;
      case CollectiveOp::Reduce:
        return node == m_destination;
      case CollectiveOp::Allreduce:
        return pe;
      case CollectiveOp::Allgather:
      case CollectiveOp::ReduceScatter:
        return true;
    }
    return false;
  }
  // The nodes whose program does something (over the subnet, transit nodes do nothing).
  bool participates(NodeId node) const {
    if (m_tree == nullptr) return true;
    const bool subnet = m_wl.algorithm == SoftwareAlgorithm::Subnet;
    return (subnet ? is_pe(node) : m_tree->rows[node].member) ||
           (m_wl.op == CollectiveOp::Reduce && node == m_destination);
  }
  bool is_pe(NodeId node) const { return processor_of(*m_tree, node); }

  // After the run (every rank calls it): this rank's figures joined with the others'.
  void join(const Ranks& ranks) {
    ranks.max(m_last);
    ranks.sum(m_checked);
  }
  Cycle completion(int k) const { return m_last[k] - m_start[k]; }
  std::uint64_t results_checked() const {
    return std::accumulate(m_checked.begin(), m_checked.end(), std::uint64_t{0});
  }
  // Of every operation's result (each checked one equals the expected one).
  std::uint64_t digest() {
    ResultDigest d;
    for (int k = 0; k < m_wl.repetitions; ++k) {
      if (m_checked[k] > 0) d.add(expected(k));
    }
    return d.value();
  }

 private:
  int tree_id() const { return m_tree != nullptr ? m_tree->id : m_wl.tree; }
  std::vector<std::int64_t> inputs(int k, NodeId node) const {
    if (!m_wl.values) return {};
    return collective_inputs(m_config.sim.seed, m_count, k, tree_id(), node);
  }
  // Node `node`'s part of operation k with messages; `words` in: its data, out: what it received.
  Task message_part(Mailbox& mailbox, NodeId node, std::vector<std::int64_t>& words);
  const std::vector<std::int64_t>& expected(int k);
  // Node `node`'s part of operation k over the hardware subnet; `words` in: its data, out: what
  // it received.
  Task subnet_part(CollectivePort& port, NodeId node, int k, std::vector<std::int64_t>& words);
  void check(NodeId node, int k, const std::vector<std::int64_t>& got);
  void finished(int k, Cycle at);
  // The broadcast packets node `node` has had land per tree, for the subnet's allgathers (kept
  // only by runs that have them).
  std::array<std::uint64_t, kMaxTrees>& landed(NodeId node) {
    if (m_landed.empty()) m_landed.resize(static_cast<std::size_t>(m_nodes));
    return m_landed[node];
  }

  const Config& m_config;
  const WorkloadParams& m_wl;
  NodeMachine& m_machine;
  const Tree* m_tree;  // null: an algorithm over all nodes
  NodeId m_source, m_destination;
  int m_nodes;
  std::size_t m_count;                   // words of the operation (allgather: of each block)
  std::vector<std::byte> m_blank;        // what timing-only sends carry
  std::vector<CpuSignal> m_gates;        // [node]; never resized (programs wait on them)
  std::vector<Cycle> m_start, m_last;    // [k]: its start, its last node's end
  int m_started = 0;                     // operations started
  std::vector<std::uint64_t> m_checked;  // [k]: results checked
  std::map<int, std::vector<std::int64_t>> m_expected;
  std::vector<int> m_allgather_trees, m_subnet_trees;
  std::vector<std::array<std::uint64_t, kMaxTrees>> m_landed;  // [node]: landed()
};

Task Harness::program(NodeId node) {
  Host& host = m_machine.host(node);
  if (!m_wl.values) host.channel(0).set_payload(Payload::TimingOnly);
  Mailbox mailbox(host.channel(0), m_blank);
  CollectivePort port(host, m_wl.values ? Payload::Values : Payload::TimingOnly);
  CpuCore& cpu = host.core();
  for (int k = 0; k < m_wl.repetitions; ++k) {
    co_await cpu.wait(m_gates[node]);
    std::vector<std::int64_t> words = inputs(k, node);  // this node's own data
    if (participates(node) && m_wl.algorithm == SoftwareAlgorithm::Subnet) {
      co_await subnet_part(port, node, k, words);
    } else if (participates(node) && m_wl.algorithm == SoftwareAlgorithm::RingSubnet) {
      co_await ring_subnet_allreduce(mailbox, port, m_nodes, m_allgather_trees, m_wl.reduction,
                                     m_count, landed(node), words);
    } else if (participates(node)) {
      co_await message_part(mailbox, node, words);
    }
    if (checked(node)) check(node, k, words);
    finished(k, cpu.local_time());
  }
}

Task Harness::message_part(Mailbox& mailbox, NodeId node, std::vector<std::int64_t>& words) {
  using A = SoftwareAlgorithm;
  const Torus& torus = m_machine.torus();
  const std::size_t bytes = m_count * sizeof(std::int64_t);
  const Reduction op = m_wl.reduction;
  switch (m_wl.op) {
    case CollectiveOp::Broadcast: {
      const auto segment = static_cast<std::size_t>(m_wl.segment_bytes) / sizeof(std::int64_t);
      if (m_wl.algorithm == A::Chain) {
        co_await chain_broadcast(mailbox, m_nodes, m_source, m_count, segment, words);
        co_return;
      }
      if (m_wl.algorithm == A::PipelinedTree) {
        co_await pipelined_tree_broadcast(mailbox, m_nodes, m_source, m_count, segment, words);
        co_return;
      }
      if (m_wl.algorithm == A::Ring) {
        co_await scatter_ring_broadcast(mailbox, m_nodes, m_source, m_count, words);
        co_return;
      }
      std::vector<std::byte> data;
      if (node == m_source) data = to_bytes(words);
      if (m_tree != nullptr) {
        co_await tree_broadcast(mailbox, torus, *m_tree, m_source, bytes, data);
      } else {
        co_await binomial_broadcast(mailbox, m_nodes, m_source, bytes, data);
      }
      words = to_words(data);
      co_return;
    }
    case CollectiveOp::Reduce:
      co_await tree_reduce(mailbox, torus, *m_tree, op, m_destination, words);
      co_return;
    case CollectiveOp::Allreduce:
      switch (m_wl.algorithm) {
        case A::RecursiveDoubling:
          co_await recursive_doubling_allreduce(mailbox, m_nodes, op, m_count, words);
          co_return;
        case A::Ring:
          co_await ring_allreduce(mailbox, m_nodes, op, m_count, words);
          co_return;
        case A::Rabenseifner:
          co_await rabenseifner_allreduce(mailbox, m_nodes, op, m_count, words);
          co_return;
        case A::Dimensional:
          co_await dimensional_allreduce(mailbox, torus, op, m_count, words);
          co_return;
        default:
          co_await tree_allreduce(mailbox, torus, *m_tree, op, words);
          co_return;
      }
    case CollectiveOp::ReduceScatter:
      if (m_wl.algorithm == A::Ring) {
        co_await ring_reduce_scatter(mailbox, m_nodes, op, m_count, words);
      } else {
        co_await recursive_halving_reduce_scatter(mailbox, m_nodes, op, m_count, words);
      }
      co_return;
    case CollectiveOp::Allgather: {
      if (m_wl.algorithm == A::Ring) {
        co_await ring_allgather(mailbox, m_nodes, m_count, words);
        co_return;
      }
      const std::vector<std::byte> own = to_bytes(words);  // none when timing only
      std::vector<std::byte> all;
      co_await recursive_doubling_allgather(
          mailbox, m_nodes, m_wl.values ? std::span(own) : std::span<const std::byte>(m_blank),
          all);
      words = to_words(all);
      co_return;
    }
  }
}

Task Harness::subnet_part(CollectivePort& port, NodeId node, int k,
                          std::vector<std::int64_t>& words) {
  const std::size_t bytes = m_count * sizeof(std::int64_t);
  const auto n = static_cast<std::uint64_t>(k);
  switch (m_wl.op) {
    case CollectiveOp::Broadcast: {
      // Tree t of T carries packets t P / T .. (t + 1) P / T - 1 of the P of 256 bytes.
      const std::span<const std::byte> data =
          m_wl.values ? std::as_bytes(std::span(words)) : std::span(m_blank);
      const std::size_t packets = (bytes + 255) / 256, trees = m_subnet_trees.size();
      for (std::size_t t = 0; t < trees; ++t) {
        const std::size_t lo = t * packets / trees, hi = (t + 1) * packets / trees;
        if (hi == lo) continue;
        const std::size_t from = lo * 256, to = std::min(hi * 256, bytes);
        if (node == m_source) {
          co_await broadcast_all(port, m_subnet_trees[t], from, data.subspan(from, to - from));
        } else {
          co_await wait_broadcasts(port, m_subnet_trees[t], (n + 1) * (hi - lo));
        }
      }
      if (node != m_source && m_wl.values) words = to_words(port.area(0, bytes));
      break;
    }
    case CollectiveOp::Reduce:
    case CollectiveOp::Allreduce: {
      // Packets of payload_flits flits, or of the operation's own words rounded up to a flit.
      const std::size_t packet =
          std::min(static_cast<std::size_t>(2 * m_wl.payload_flits), (m_count + 1) / 2 * 2);
      const std::size_t packets = (m_count + packet - 1) / packet, trees = m_subnet_trees.size();
      std::vector<std::uint64_t> first;  // each tree's reduces before this operation
      for (std::size_t t = 0; t < trees; ++t) {
        first.push_back(n * ((packets + trees - 1 - t) / trees));
      }
      const ReduceOp op{m_wl.reduction, m_wl.op == CollectiveOp::Allreduce};
      co_await segmented_reduce(port, m_subnet_trees, op, m_destination, first, m_count, packet,
                                static_cast<std::size_t>(m_config.collective.reduces_in_flight),
                                words);
      break;
    }
    case CollectiveOp::Allgather: {
      const std::vector<std::byte> own = to_bytes(words);  // none when timing only
      const auto block = m_wl.values ? std::span(own) : std::span<const std::byte>(m_blank);
      std::vector<std::byte> all;
      co_await subnet_allgather(port, m_nodes, m_allgather_trees, block, landed(node), all);
      words = to_words(all);
      break;
    }
    case CollectiveOp::ReduceScatter:  // not over the subnet: the config refuses it
      break;
  }
}

// The expected result of operation k, computed from the inputs alone.
const std::vector<std::int64_t>& Harness::expected(int k) {
  auto [it, fresh] = m_expected.try_emplace(k);
  if (!fresh) return it->second;
  std::vector<std::int64_t>& want = it->second;
  switch (m_wl.op) {
    case CollectiveOp::Broadcast:
      want = inputs(k, m_source);
      break;
    case CollectiveOp::Reduce:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:  // the whole vector; each node checks its chunk of it
      for (NodeId n = 0; n < static_cast<NodeId>(m_nodes); ++n) {
        if (m_tree != nullptr && !is_pe(n)) continue;
        const auto in = inputs(k, n);
        if (want.empty()) {
          want = in;
          continue;
        }
        for (std::size_t i = 0; i < in.size(); ++i) {
          want[i] = reference_reduce(m_wl.reduction, want[i], in[i]);
        }
      }
      break;
    case CollectiveOp::Allgather:
      for (NodeId n = 0; n < static_cast<NodeId>(m_nodes); ++n) {
        const auto in = inputs(k, n);
        want.insert(want.end(), in.begin(), in.end());
      }
      break;
  }
  return want;
}

void Harness::check(NodeId node, int k, const std::vector<std::int64_t>& got) {
  std::span<const std::int64_t> want = expected(k);
  if (m_wl.op == CollectiveOp::ReduceScatter) {  // node r's chunk r of the nodes
    const auto n = static_cast<std::size_t>(m_nodes);
    const std::size_t lo = chunk_start(want.size(), n, node);
    want = want.subspan(lo, chunk_start(want.size(), n, node + 1) - lo);
  }
  auto fail = [&](const std::string& what) {
    model_error(
        report_id::kCollective,
        fmt::format("software {} ({}), operation {}: node {} {}: {}", op_label(m_wl.op),
                    m_tree ? "tree" : "all nodes", k, node, m_machine.torus().format(node), what));
  };
  if (got.size() != want.size()) {
    fail(fmt::format("got {} words, expected {}", got.size(), want.size()));
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) fail(fmt::format("word {} is {}, expected {}", i, got[i], want[i]));
  }
  ++m_checked[k];
}

void Harness::finished(int k, Cycle at) {
  m_last[k] = std::max(m_last[k], at);
  if (k + 1 < m_wl.repetitions) m_machine.barrier().arrive(at);
}

}  // namespace

SoftwareResult run_software_experiment(const Config& config, const ProgressSink& progress) {
  return record_run<SoftwareResult>(config, [&](SoftwareResult& r) {
    const auto& wl = config.workload;
    if (wl.overlap || wl.all_trees || wl.background_rate > 0) {
      throw ConfigError(wl.overlap     ? "workload.overlap"
                        : wl.all_trees ? "workload.all_trees"
                                       : "workload.background_rate",
                        "set", "the software collectives run one operation at a time on one tree");
    }

    NodeMachine machine(config);
    const Torus& torus = machine.torus();
    // The tree of workload.tree, if there is one: the tree algorithms run on it, and its root is
    // the default source and destination of the others too (as in the hardware experiment).
    const TreeSet& trees = machine.system().trees();
    const Tree* tree = wl.tree >= 0 && wl.tree < kMaxTrees ? trees[wl.tree] : nullptr;
    const NodeId root = tree != nullptr ? tree->root : 0;
    const NodeId source = wl.source.empty() ? root : config.topology.node_at(wl.source);
    const NodeId destination =
        wl.destination.empty() ? root : config.topology.node_at(wl.destination);
    const bool on_tree =
        wl.algorithm == SoftwareAlgorithm::Tree ||
        (wl.algorithm == SoftwareAlgorithm::Subnet && wl.op != CollectiveOp::Allgather);
    if (on_tree && tree == nullptr) {
      throw ConfigError("workload.tree", fmt::format("{}", wl.tree), "no such tree");
    }
    if (on_tree) check_processors(config, *tree, torus);
    std::vector<int> subnet_trees{wl.tree};
    for (int t = wl.tree + 1; t < wl.tree + wl.subnet_trees; ++t) {
      if (t >= kMaxTrees || trees[t] == nullptr) {
        throw ConfigError("workload.subnet_trees", fmt::format("{}", wl.subnet_trees),
                          fmt::format("trees {} .. {} must all exist: tree {} does not "
                                      "(collective.trees)",
                                      wl.tree, wl.tree + wl.subnet_trees - 1, t));
      }
      check_processors(config, *trees[t], torus);
      if (wl.op == CollectiveOp::Broadcast && !processor_of(*trees[t], source)) {
        throw ConfigError("workload.source", torus.format(source),
                          fmt::format("a broadcast cut across trees starts at a processor of "
                                      "each: not one of tree {}",
                                      t));
      }
      if (wl.op == CollectiveOp::Reduce && !processor_of(*trees[t], destination)) {
        throw ConfigError("workload.destination", torus.format(destination),
                          fmt::format("a reduce cut across trees (workload.subnet_trees = {}) ends "
                                      "at a processor of each: not one of tree {}",
                                      wl.subnet_trees, t));
      }
      subnet_trees.push_back(t);
    }
    if (on_tree && wl.op == CollectiveOp::Broadcast && !processor_of(*tree, source)) {
      throw ConfigError("workload.source", torus.format(source),
                        fmt::format("a broadcast starts at a processor of tree {} (a member with "
                                    "pe), not at a transit node or outside it",
                                    tree->id));
    }

    if ((wl.algorithm == SoftwareAlgorithm::Subnet && wl.op == CollectiveOp::Allgather) ||
        wl.algorithm == SoftwareAlgorithm::RingSubnet) {
      check_every_node_takes_part(config, trees, torus, "an allgather over the subnet", 0,
                                  kMaxTrees - 1);
    }
    if (on_tree && wl.op == CollectiveOp::Reduce && !processor_of(*tree, destination)) {
      throw ConfigError(wl.destination.empty() ? "collective.transit" : "workload.destination",
                        torus.format(destination),
                        fmt::format("a reduce's result goes to a processor of tree {} (a member "
                                    "with pe), not to a transit node or outside it",
                                    tree->id));
    }

    Harness harness(config, machine, on_tree ? tree : nullptr, source, destination);
    std::vector<int> all_trees;
    for (int t = 0; t < kMaxTrees; ++t) {
      if (trees[t] != nullptr) all_trees.push_back(t);
    }
    harness.set_allgather_trees(std::move(all_trees));
    harness.set_subnet_trees(std::move(subnet_trees));
    for (NodeId n = 0; n < static_cast<NodeId>(machine.nodes()); ++n) {
      if (machine.local(n)) machine.load(n, harness.program(n));
      r.participants += harness.participates(n);
    }
    machine.run(progress);
    harness.join(machine.system().ranks());

    r.root = on_tree ? root : source;
    for (int k = 0; k < wl.repetitions; ++k) r.completion.push_back(harness.completion(k));
    r.results_checked = harness.results_checked();
    r.messages = machine.messages_delivered();
    r.results_digest = harness.digest();
    r.split = machine.split_record();
    r.contention = machine.system().contention();
    return machine.now();
  });
}

nlohmann::ordered_json to_json(const SoftwareResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = "software";
  j["op"] = op_name(r.config);
  j["algorithm"] = algorithm_name(r.config);
  j["nodes"] = r.nodes;
  j["participants"] = r.participants;
  j["bytes"] = r.config.workload.operation_bytes();
  j["values"] = r.config.workload.values ? "checked" : "timing only";
  j["root"] = r.root;
  add_completion(j, r.completion, r.config);
  j["results_checked"] = r.results_checked;
  j["messages_delivered"] = r.messages;
  j["results_digest"] = digest_hex(r.results_digest);
  add_run(j, r);
  return j;
}

std::string summary_line(const SoftwareResult& r) {
  return with_wall_time(
      r, fmt::format("{}, software {} ({}) of {} bytes, {} participants: {}, {} results checked, "
                     "{} messages",
                     torus_name(r.config), op_name(r.config), algorithm_name(r.config),
                     r.config.workload.operation_bytes(), r.participants,
                     completion_summary(r.completion, r.config), r.results_checked, r.messages));
}

}  // namespace angara
