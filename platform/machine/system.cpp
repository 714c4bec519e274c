#include "platform/machine/system.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <type_traits>

#include "collectives/subnet/collective_node.h"
#include "models/core/config_error.h"
#include "models/endpoint/endpoint_at.h"
#include "models/endpoint/endpoint_lt.h"
#include "models/router/lt_buffers.h"
#include "models/router/router_at.h"
#include "models/router/router_lt.h"
#include "platform/machine/model_reports.h"
#include "platform/machine/rtl_blocks.h"

namespace angara {

System::System(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
               TrafficObserver& observer)
    : m_topology(config.topology),
      m_router_shared(m_topology, config.fabric(), config.sim.seed),
      m_clock(config.router.clock_mhz),
      m_sources(std::move(sources)) {
  check_rtl_built(config.rtl);
  report_model_errors_to_systemc();
  if (config.trace.on()) {
    m_tracer = std::make_unique<Tracer>();
    for (const auto& c : config.trace.nodes) m_traced.push_back(node_at(torus(), c));
  }
  if (m_topology.torus()) m_trees = make_trees(config, torus());
  m_tree_set.fill(nullptr);
  for (const Tree& t : m_trees) m_tree_set[t.id] = &t;
  if (config.sim.mode == SimMode::Lt) {
    // The global quantum is set here, once, from the config (never by a module).
    tlm::tlm_global_quantum::instance().set(m_clock.period() *
                                            static_cast<double>(config.sim.quantum_cycles));
    m_wake_calendar = std::make_unique<WakeCalendar>("wake_calendar", m_clock);
    build<RouterLt, EndpointLt>(config, observer, config.sim.quantum_cycles,
                                std::ref(*m_wake_calendar), config.sim.lt_buffers);
  } else {
    build<RouterAt, EndpointAt>(config, observer);
  }
}

// SystemC 2.3 unregisters a module by a linear search of two global lists (its modules and its
// top-level objects), so tearing down a machine is quadratic in its size: 6 s of a 32768-node
// run. The modules are left to the end of the process instead, still registered with SystemC (a
// model elaborates once per process anyway; tests run each machine in a child process).
System::~System() {
  for (auto& module : m_modules) static_cast<void>(module.release());
}

template <typename RouterShell, typename EndpointShell, typename... ShellArgs>
void System::build(const Config& config, TrafficObserver& observer, ShellArgs... endpoint_args) {
  const auto nodes = static_cast<NodeId>(m_topology.node_count());
  const auto router_count = static_cast<NodeId>(m_topology.router_count());
  std::vector<RouterShell*> routers;
  std::vector<EndpointShell*> endpoints;
  // [stats]: the measurement window of synthetic traffic.
  const Cycle stats_from = config.sim.warmup_cycles;
  const Cycle stats_to = stats_from + config.sim.measure_cycles;
  for (NodeId n = 0; n < nodes; ++n) {
    RouterCore core(n, m_router_shared, collective_unit(n, config), m_pool);
    if (traced(n)) core.set_trace(router_trace(n, config));
    if (config.stats.network) core.set_stats(stats_from, stats_to, config.sim.buffers());
    auto router =
        std::make_unique<RouterShell>(module_name("router", n).c_str(), std::move(core), m_clock);
    auto endpoint = std::make_unique<EndpointShell>(
        module_name("endpoint", n).c_str(),
        EndpointCore(n, *m_sources[n], observer, m_ledger, m_pool, config.fabric()), m_clock,
        endpoint_args...);
    if constexpr (std::is_same_v<RouterShell, RouterAt>) {
      if (config.rtl.vcup == BlockImpl::Rtl) {
        m_modules.push_back(make_rtl_vcup(module_name("rtl_vcup", n),
                                          "node " + m_topology.format(n), *router, m_tree_set,
                                          m_clock, m_rtl_vcup_stats));
      }
    }
    routers.push_back(router.get());
    endpoints.push_back(endpoint.get());
    m_routers.push_back(&router->core());
    m_endpoints.push_back(&endpoint->core());
    m_endpoint_wakers.push_back([e = endpoint.get()] { e->wake(); });
    m_modules.push_back(std::move(router));
    m_modules.push_back(std::move(endpoint));
  }
  for (NodeId n = nodes; n < router_count; ++n) {  // a fat tree's switches: no endpoint
    RouterCore core(n, m_router_shared, nullptr, m_pool);
    if (config.stats.network) core.set_stats(stats_from, stats_to, config.sim.buffers());
    auto router = std::make_unique<RouterShell>(fmt::format("switch_{}", n - nodes).c_str(),
                                                std::move(core), m_clock);
    routers.push_back(router.get());
    m_routers.push_back(&router->core());
    m_modules.push_back(std::move(router));
  }
  // Multi-socket indices follow binding order, so every router's out[p] and in[p] are bound in
  // port order, and the local port last.
  if (const FatTree* tree = m_topology.fat_tree()) {
    // Level by level from the leaves, each switch's down links in port order. A switch's up
    // links are bound at the next level, in order too: its up port j leads to the j-th switch
    // above it in index order.
    for (int level = 0; level < tree->levels(); ++level) {
      for (int index = 0; index < tree->switches_per_level(); ++index) {
        const NodeId s = tree->switch_at(level, index);
        for (int port = 0; port < tree->k(); ++port) {
          const NodeId below = tree->peer(s, static_cast<PortId>(port)).router;
          routers[s]->out.bind(routers[below]->in);
          routers[below]->out.bind(routers[s]->in);
        }
      }
    }
  } else {
    // Port by port: out[d] of every router to in[d] of its neighbour in direction d.
    const Torus& t = torus();
    for (int d = 0; d < t.direction_count(); ++d) {
      const Direction dir = Direction::from_index(d);
      for (NodeId n = 0; n < nodes; ++n)
        routers[t.neighbor(n, dir.opposite())]->out.bind(routers[n]->in);
    }
  }
  for (NodeId n = 0; n < nodes; ++n) {
    endpoints[n]->inject.bind(routers[n]->in);
    routers[n]->out.bind(endpoints[n]->eject);
  }
  if constexpr (std::is_same_v<RouterShell, RouterLt>) {
    m_lt_routers = std::move(routers);
    m_lt_endpoints.assign(endpoints.begin(), endpoints.end());
    if (config.sim.lt_buffers) {
      std::size_t per_router = 0;
      for (const RouterLt* router : m_lt_routers) {
        per_router = std::max(per_router, router->port_vcs());
      }
      m_lt_buffers = std::make_unique<LtBuffers>(m_lt_routers.size(), per_router);
    }
    for (RouterLt* router : m_lt_routers) {
      router->set_fabric(m_lt_routers, m_lt_endpoints, *m_wake_calendar, m_lt_buffers.get());
    }
  }
}

namespace {

// The first member of `tree` whose up hop crosses a failed link or reaches a failed node, if any
// (a failed node left in the tree would be a transit node, and it routes nothing).
std::optional<NodeId> over_failed_link(const Tree& tree, const FaultMap& faults) {
  for (NodeId n = 0; n < static_cast<NodeId>(tree.rows.size()); ++n) {
    const TreeRow& row = tree.rows[n];
    if (row.member && row.to_root && faults.hop_failed(n, *row.to_root)) return n;
  }
  return std::nullopt;
}

[[noreturn]] void refuse_tree(const std::string& key, const std::string& value, const Tree& tree,
                              NodeId at, const Torus& torus, const FaultMap& faults) {
  throw ConfigError(key, value,
                    fmt::format("tree {} goes up from {} over a failed link or to a failed "
                                "node, {}{} ({}): give it another root or fail other elements",
                                tree.id, torus.format(at), torus.format(at),
                                tree.rows[at].to_root->name(), faults.describe(torus)));
}

}  // namespace

std::vector<Tree> System::make_trees(const Config& config, const Torus& torus) {
  const auto& c = config.collective;
  const int nodes = torus.node_count();
  std::vector<bool> pe(static_cast<std::size_t>(nodes), true);
  for (const auto& t : c.transit) pe[node_at(torus, t)] = false;
  // Synthetic traffic leaves the subnet idle; the other kinds' trees avoid failed links and nodes
  // (failed nodes take no part).
  const FaultMap faults = config.workload.kind == WorkloadKind::Synthetic
                              ? FaultMap()
                              : FaultMap(torus, config.faults, config.sim.seed);
  std::vector<Tree> trees;
  for (int id = 0; id < c.trees; ++id) {
    const bool given = id < static_cast<int>(c.roots.size());
    const NodeId root = given ? node_at(torus, c.roots[id])
                              : static_cast<NodeId>(static_cast<long long>(id) * nodes / c.trees);
    if (!faults.any()) {
      trees.push_back(build_dimension_order_tree(torus, id, root, pe));
      validate_tree(torus, trees.back());
      continue;
    }
    // Laid around the failures; a default root that is failed, or from which a live processor
    // cannot be reached, moves on node by node to the first that works.
    std::optional<Tree> tree = build_tree_around_failures(torus, id, root, pe, faults);
    for (int k = 1; !given && !tree && k < nodes; ++k) {
      tree = build_tree_around_failures(
          torus, id, static_cast<NodeId>((root + static_cast<NodeId>(k)) % nodes), pe, faults);
    }
    if (!tree) {
      throw ConfigError(
          given ? "collective.roots" : "collective.trees",
          given ? torus.format(root) : fmt::format("{}", c.trees),
          fmt::format("tree {} {} ({}): give it another root or fail other elements", id,
                      given && faults.node_failed(root) ? "has its root on a failed node"
                      : given ? "cannot reach every live processor from its root"
                              : "cannot reach every live processor from any root",
                      faults.describe(torus)));
    }
    trees.push_back(std::move(*tree));
    if (const auto at = over_failed_link(trees.back(), faults)) {
      refuse_tree(given ? "collective.roots" : "collective.trees",
                  given ? torus.format(root) : fmt::format("{}", c.trees), trees.back(), *at, torus,
                  faults);
    }
    validate_tree(torus, trees.back());
  }
  for (const TreeSpec& spec : c.tree) {
    trees.push_back(tree_from_rows(spec, torus));
    validate_tree(torus, trees.back());
    if (const auto at = over_failed_link(trees.back(), faults)) {
      refuse_tree(fmt::format("collective.tree[{}]", spec.id), torus.format(*at), trees.back(), *at,
                  torus, faults);
    }
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
  std::unique_ptr<ReducerBlock> reducer;
  if (config.rtl.reducer == BlockImpl::Rtl) {
    reducer = make_rtl_reducer(module_name("rtl_reducer", n), "node " + m_topology.format(n),
                               config.collective, m_clock, m_rtl_stats);
  }
  auto node = std::make_unique<CollectiveNode>(n, m_tree_set, config.collective, m_pool,
                                               config.sim.mode == SimMode::At, std::move(reducer));
  if (traced(n)) node->set_trace(pegroup_trace(n, config));
  return node;
}

std::string System::module_name(const char* module, const std::vector<int>& coords) {
  std::string name = module;
  for (int c : coords) name += "_" + std::to_string(c);
  return name;
}

// A fat tree's nodes have no coordinates: their index stands for them.
std::string System::module_name(const char* module, NodeId node) const {
  const Torus* torus = m_topology.torus();
  if (torus == nullptr) return module_name(module, std::vector<int>{static_cast<int>(node)});
  const Coords& c = torus->coords(node);
  return module_name(module, std::vector<int>(c.begin(), c.begin() + torus->dims()));
}

bool System::traced(NodeId n) const {
  return std::find(m_traced.begin(), m_traced.end(), n) != m_traced.end();
}

namespace {

// "xp" for +X, "wm" for -W: port names that every VCD reader takes.
std::string port_tag(int port) {
  const Direction d = Direction::from_index(port);
  return std::string(1, static_cast<char>('x' + (d.dim == 3 ? -1 : d.dim))) +
         (d.negative ? "m" : "p");
}

}  // namespace

std::unique_ptr<RouterTrace> System::router_trace(NodeId n, const Config& config) {
  const auto& tc = config.trace;
  auto t = std::make_unique<RouterTrace>();
  t->tracer = m_tracer.get();
  const std::string node = module_name("router", n);
  const int dirs = torus().direction_count(), ports = dirs + 1;  // directions and the local port
  const int p2p = m_router_shared.vcs, vcs = p2p + 2;            // then VCUp and VCDown
  t->link_valid.assign(ports, -1);
  t->link_packet.assign(ports, -1);
  t->credits.assign(static_cast<std::size_t>(ports * vcs), -1);
  t->inputs.assign(static_cast<std::size_t>(ports * vcs), {});
  // Point-to-point buffers may be deep (router.buffer_flits): their counters are wider.
  auto collective_vc = [&](const std::string& scope) {
    return RouterTrace::Vc{m_tracer->declare(scope, "occupancy", 8),
                           m_tracer->declare(scope, "stage", 3),
                           m_tracer->declare(scope, "packet", 32)};
  };
  for (int p = 0; p < ports; ++p) {
    const std::string tag = p < dirs ? port_tag(p) : "local";
    RouterTrace::Vc* in = &t->inputs[static_cast<std::size_t>(p * vcs)];
    Tracer::Signal* credits = &t->credits[static_cast<std::size_t>(p * vcs)];
    if (tc.traces("link")) {
      t->link_valid[p] = m_tracer->declare(node + ".link_" + tag, "valid", 1);
      t->link_packet[p] = m_tracer->declare(node + ".link_" + tag, "packet", 32);
    }
    if (tc.traces("vc")) {
      for (int vc = 0; vc < p2p; ++vc) {
        in[vc].occupancy = m_tracer->declare(node + ".vc_" + tag, fmt::format("vc{}", vc), 16);
      }
    }
    if (p < dirs && tc.traces("vcup")) in[p2p] = collective_vc(node + ".vcup_" + tag);
    if (p < dirs && tc.traces("vcdown")) in[p2p + 1] = collective_vc(node + ".vcdown_" + tag);
    if (p == dirs && tc.traces("pegroup_fifo")) in[p2p] = collective_vc(node + ".pegroup_fifo");
    if (tc.traces("credit")) {
      credits[p2p] = m_tracer->declare(node + ".credits_" + tag, "vcup", 8);
      credits[p2p + 1] = m_tracer->declare(node + ".credits_" + tag, "vcdown", 8);
      for (int vc = 0; vc < p2p; ++vc) {
        credits[vc] = m_tracer->declare(node + ".credits_" + tag, fmt::format("vc{}", vc), 16);
      }
    }
  }
  return t;
}

std::unique_ptr<PeGroupTrace> System::pegroup_trace(NodeId n, const Config& config) {
  const auto& tc = config.trace;
  auto t = std::make_unique<PeGroupTrace>();
  t->tracer = m_tracer.get();
  const std::string node = module_name("router", n);
  if (tc.traces("broadcaster")) {
    t->broadcaster_valid = m_tracer->declare(node + ".broadcaster", "valid", 1);
    t->broadcaster_packet = m_tracer->declare(node + ".broadcaster", "packet", 32);
  }
  if (tc.traces("reducer")) {
    t->reducer_valid = m_tracer->declare(node + ".reducer", "valid", 1);
    t->reducer_packet = m_tracer->declare(node + ".reducer", "packet", 32);
  }
  for (const Tree& tree : m_trees) {
    if (tc.traces("reducer")) {
      t->reduces[tree.id] =
          m_tracer->declare(node + ".reducer", fmt::format("in_flight_t{}", tree.id), 5);
    }
    if (tc.traces("credit")) {
      t->up_credits[tree.id] =
          m_tracer->declare(node + ".credit_block", fmt::format("up_credits_t{}", tree.id), 8);
    }
  }
  for (const Tree& tree : m_trees) {
    if (t->up_credits[tree.id] >= 0) m_tracer->change(t->up_credits[tree.id], 0, kReducesPerTree);
  }
  return t;
}

std::string System::trace_vcd() const {
  std::ostringstream out;
  if (m_tracer) {
    m_tracer->write_vcd(out,
                        m_clock.period().value() / sc_core::sc_time(1, sc_core::SC_PS).value());
  }
  return out.str();
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
