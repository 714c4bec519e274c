#include "platform/machine/cut.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>

#include "models/core/config_error.h"
#include "models/core/model_error.h"

namespace angara {
namespace {

enum class Record : char { Packet = 'P', Credit = 'C' };

RankGrid grid_of(const Torus& torus, const Ranks& ranks) {
  return ranks.grid_request().empty() ? RankGrid::fewest_cuts(torus, ranks.size())
                                      : RankGrid::parse(ranks.grid_request(), torus, ranks.size());
}

}  // namespace

std::vector<bool> local_nodes(const Torus& torus, const Ranks& ranks) {
  std::vector<bool> local(static_cast<std::size_t>(torus.node_count()), true);
  if (!ranks.parallel()) return local;
  const RankGrid grid = grid_of(torus, ranks);
  for (NodeId n = 0; n < local.size(); ++n) local[n] = grid.owner(n) == ranks.rank();
  return local;
}

std::vector<NodeId> construction_order(NodeId nodes) {
  std::vector<NodeId> order(nodes);
  std::iota(order.begin(), order.end(), NodeId{0});
  if (const char* seed = std::getenv("ANGARA_TEST_CONSTRUCTION_SEED")) {
    std::shuffle(order.begin(), order.end(), std::mt19937_64(std::strtoull(seed, nullptr, 10)));
  }
  return order;
}

Cut::Cut(const Config& config, const Torus& torus, const Ranks& ranks)
    : m_ranks(ranks), m_grid(grid_of(torus, ranks)), m_window(lookahead(config) - 1) {
  // The project's own test of the lookahead check runs windows longer than allowed.
  if (const char* test_window = std::getenv("ANGARA_TEST_WINDOW_CYCLES")) {
    m_window = std::strtoull(test_window, nullptr, 10);
  }
  m_owner.resize(static_cast<std::size_t>(torus.node_count()));
  for (NodeId n = 0; n < m_owner.size(); ++n) m_owner[n] = m_grid.owner(n);
}

void Cut::add(LinkTx& tx, LinkId link, NodeId downstream) {
  m_tx.emplace(link, &tx);
  add_peer(link, m_owner[downstream]);
}

void Cut::add(LinkRx& rx, LinkId link, NodeId upstream) {
  m_rx.emplace(link, &rx);
  add_peer(link, m_owner[upstream]);
}

void Cut::add_peer(LinkId link, int rank) {
  m_peer_of.emplace(link, rank);
  const auto it = std::lower_bound(m_peers.begin(), m_peers.end(), rank);
  if (it != m_peers.end() && *it == rank) return;
  m_peers.insert(it, rank);
  m_out.resize(m_peers.size());  // all empty while the machine is bound
}

Bytes& Cut::outbox(int rank) {
  const auto it = std::lower_bound(m_peers.begin(), m_peers.end(), rank);
  return m_out[static_cast<std::size_t>(it - m_peers.begin())];
}

void Cut::post_packet(LinkId link, const Packet& packet) {
  Bytes& out = outbox(m_peer_of.at(link));
  put(out, Record::Packet);
  put(out, link);
  put(out, packet);
  ++m_work.records;
}

void Cut::post_credit(LinkId link, Credit credit, Cycle at) {
  Bytes& out = outbox(m_peer_of.at(link));
  put(out, Record::Credit);
  put(out, link);
  put(out, credit);
  put(out, at);
  ++m_work.records;
}

void Cut::exchange() {
  const auto start = std::chrono::steady_clock::now();
  m_ranks.exchange(m_peers, m_out, m_in);
  for (Bytes& out : m_out) {
    m_work.bytes += out.size();
    out.clear();
  }
  for (const Bytes& in : m_in) {
    std::size_t at = 0;
    while (at < in.size()) {
      const auto kind = take<Record>(in, at);
      const auto link = take<LinkId>(in, at);
      if (kind == Record::Packet) {
        m_rx.at(link)->deliver(take<Packet>(in, at));
      } else {
        const auto credit = take<Credit>(in, at);
        m_tx.at(link)->give_credit(credit, take<Cycle>(in, at));
      }
    }
  }
  ++m_work.windows;
  m_work.exchange_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void check_parallel(const Config& config, const Ranks& ranks) {
  if (!ranks.grid_request().empty()) {
    if (config.topology.kind != TopologyKind::Torus) {
      throw ConfigError("--grid", ranks.grid_request(),
                        "boxes of a torus: topology.kind is not "
                        "\"torus\"");
    }
    static_cast<void>(
        RankGrid::parse(ranks.grid_request(), Torus(config.topology.dims), ranks.size()));
  }
  if (ranks.parallel()) check_splittable(config, ranks.size());
}

}  // namespace angara
