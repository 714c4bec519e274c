#include "platform/system.h"

#include <fmt/format.h>

#include "collectives/collective_node.h"
#include "models/endpoint/endpoint_at.h"
#include "models/endpoint/endpoint_lt.h"
#include "models/router/router_at.h"
#include "models/router/router_lt.h"

namespace angara {

System::System(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
               TrafficObserver& observer)
    : m_torus(config.topology.dims),
      m_routing(m_torus, config.router),
      m_clock(config.router.clock_mhz),
      m_sources(std::move(sources)) {
  m_trees = make_trees(config, m_torus);
  m_tree_set.fill(nullptr);
  for (const Tree& t : m_trees) m_tree_set[t.id] = &t;
  if (config.sim.mode == SimMode::Lt) {
    // The global quantum is set here, once, from the config (never by a module).
    tlm::tlm_global_quantum::instance().set(m_clock.period() *
                                            static_cast<double>(config.sim.quantum_cycles));
    build<RouterLt, EndpointLt>(config, observer, config.sim.quantum_cycles);
  } else {
    build<RouterAt, EndpointAt>(config, observer);
  }
}

System::~System() = default;

template <typename RouterShell, typename EndpointShell, typename... ShellArgs>
void System::build(const Config& config, TrafficObserver& observer, ShellArgs... endpoint_args) {
  const auto nodes = static_cast<NodeId>(m_torus.node_count());
  std::vector<RouterShell*> routers;
  std::vector<EndpointShell*> endpoints;
  for (NodeId n = 0; n < nodes; ++n) {
    auto router = std::make_unique<RouterShell>(
        fmt::format("router_{}", n).c_str(),
        RouterCore(n, m_torus, m_routing, config, collective_unit(n, config), m_pool), m_clock);
    auto endpoint = std::make_unique<EndpointShell>(
        fmt::format("endpoint_{}", n).c_str(),
        EndpointCore(n, *m_sources[n], observer, m_ledger, m_pool, config), m_clock,
        endpoint_args...);
    routers.push_back(router.get());
    endpoints.push_back(endpoint.get());
    m_routers.push_back(&router->core());
    m_endpoints.push_back(&endpoint->core());
    m_endpoint_wakers.push_back([e = endpoint.get()] { e->wake(); });
    m_modules.push_back(std::move(router));
    m_modules.push_back(std::move(endpoint));
  }
  // Multi-socket indices follow binding order, so bind port by port: out[d] and in[d] of every
  // router get index d, and the local port comes last.
  for (int d = 0; d < m_torus.direction_count(); ++d) {
    const Direction dir = Direction::from_index(d);
    for (NodeId n = 0; n < nodes; ++n)
      routers[m_torus.neighbor(n, dir.opposite())]->out.bind(routers[n]->in);
  }
  for (NodeId n = 0; n < nodes; ++n) {
    endpoints[n]->inject.bind(routers[n]->in);
    routers[n]->out.bind(endpoints[n]->eject);
  }
}

std::vector<Tree> System::make_trees(const Config& config, const Torus& torus) {
  const auto& c = config.collective;
  const int nodes = torus.node_count();
  std::vector<bool> pe(static_cast<std::size_t>(nodes), true);
  for (const auto& t : c.transit) pe[node_at(torus, t)] = false;
  std::vector<Tree> trees;
  for (int id = 0; id < c.trees; ++id) {
    const NodeId root = id < static_cast<int>(c.roots.size())
                            ? node_at(torus, c.roots[id])
                            : static_cast<NodeId>(static_cast<long long>(id) * nodes / c.trees);
    trees.push_back(build_dimension_order_tree(torus, id, root, pe));
    validate_tree(torus, trees.back());
  }
  for (const TreeSpec& spec : c.tree) {
    trees.push_back(tree_from_rows(spec, torus));
    validate_tree(torus, trees.back());
  }
  return trees;
}

// A tree given row by row; the validator then checks it like any other.
Tree System::tree_from_rows(const TreeSpec& spec, const Torus& torus) {
  Tree tree;
  tree.id = spec.id;
  tree.rows.resize(static_cast<std::size_t>(torus.node_count()));
  for (const TreeRowSpec& r : spec.rows) {
    const NodeId n = node_at(torus, r.node);
    TreeRow& row = tree.rows[n];
    row.member = true;
    row.is_root = r.root;
    row.pe = r.pe;
    if (r.root) tree.root = n;
    if (Direction d; parse_direction(r.to_root, d)) row.to_root = d;
    for (Direction d : r.dirs) row.dirs |= static_cast<std::uint8_t>(1U << d.index());
    row.dir_sum = static_cast<int>(r.dirs.size());
  }
  return tree;
}

NodeId System::node_at(const Torus& torus, const std::vector<int>& coords) {
  Coords c{};
  std::copy(coords.begin(), coords.end(), c.begin());
  return torus.node(c);
}

std::unique_ptr<CollectiveUnit> System::collective_unit(NodeId n, const Config& config) {
  if (m_trees.empty()) return nullptr;
  return std::make_unique<CollectiveNode>(n, m_tree_set, config.collective, m_pool,
                                          config.sim.mode == SimMode::At);
}

void System::wake_endpoints() {
  for (auto& wake : m_endpoint_wakers) wake();
}

void System::stop_creating() {
  for (EndpointCore* e : m_endpoints) e->stop_creating(m_clock.now());
}

std::uint64_t System::flit_hops() const {
  std::uint64_t hops = 0;
  for (const RouterCore* r : m_routers) hops += r->flit_hops();
  return hops;
}

std::size_t System::queued_at_sources() const {
  std::size_t queued = 0;
  for (const EndpointCore* e : m_endpoints) queued += e->queued();
  return queued;
}

std::optional<std::string> System::oldest_blocked(Cycle now) const {
  std::optional<RouterCore::Blocked> oldest;
  for (const RouterCore* r : m_routers) {
    auto b = r->oldest_blocked(now);
    if (b && (!oldest || b->since < oldest->since)) oldest = std::move(b);
  }
  if (!oldest) return std::nullopt;
  return oldest->what;
}

}  // namespace angara
