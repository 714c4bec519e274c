#include "platform/machine/system.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <type_traits>

#include "collectives/rtl/rtl_seed.h"
#include "collectives/subnet/collective_node.h"
#include "models/core/config_error.h"
#include "models/core/model_error.h"
#include "models/endpoint/endpoint_at.h"
#include "models/endpoint/endpoint_lt.h"
#include "models/router/lt/lt_fabric.h"
#include "models/router/router_at.h"
#include "models/router/router_lt.h"
#include "platform/machine/model_reports.h"
#include "platform/machine/rtl_blocks.h"
#include "platform/machine/trace_signals.h"
#include "platform/machine/tree_plan.h"
#include "platform/parallel/first_note.h"

namespace angara {

System::System(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
               TrafficObserver& observer)
    : m_topology(config.topology),
      m_ranks(Ranks::world()),
      m_router_shared(m_topology, config.fabric(), config.sim.seed),
      m_clock(config.router.clock_mhz),
      m_sources(std::move(sources)),
      m_trace(config, m_topology) {
  check_rtl_built(config.rtl);
  check_parallel(config, m_ranks);
  if (m_ranks.parallel()) {
    m_cut = std::make_unique<Cut>(config, torus(), m_ranks);
    m_ledger.take_other_sources();
  }
  report_model_errors_to_systemc();
  if (m_topology.torus()) m_trees = plan_trees(config, torus());
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
// top-level objects), so tearing down a machine is quadratic in its size, seconds on a large
// torus. The modules are left to the end of the process instead, still registered with SystemC (a
// model elaborates once per process anyway; tests run each machine in a child process).
System::~System() {
  for (auto& module : m_modules) static_cast<void>(module.release());
  if (!m_rtl_dir.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(m_rtl_dir, ignored);
  }
}

template <typename RouterShell, typename EndpointShell, typename... ShellArgs>
void System::build(const Config& config, TrafficObserver& observer, ShellArgs... endpoint_args) {
  const auto nodes = static_cast<NodeId>(m_topology.node_count());
  const auto router_count = static_cast<NodeId>(m_topology.router_count());
  // [router], [node]: null for one on another rank.
  std::vector<RouterShell*> routers(router_count, nullptr);
  std::vector<EndpointShell*> endpoints(nodes, nullptr);
  m_endpoint_wakers.assign(nodes, [] {});
  // [stats]: the measurement window of synthetic traffic.
  const Cycle stats_from = config.sim.warmup_cycles;
  const Cycle stats_to = stats_from + config.sim.measure_cycles;
  const auto add_router = [&](NodeId r) {
    RouterCore core(r, m_router_shared, collective_unit(r, config), m_pool);
    if (config.stats.network) core.set_stats(stats_from, stats_to, config.sim.buffers());
    const std::string name =
        m_topology.fat_tree() ? fmt::format("switch_{}", r) : module_name("router", r, m_topology);
    auto router = std::make_unique<RouterShell>(name.c_str(), std::move(core), m_clock);
    if constexpr (std::is_same_v<RouterShell, RouterAt>) {
      if (m_trace.traced(r)) router->set_trace(m_trace.router(r, m_router_shared.vcs));
    }
    routers[r] = router.get();
    m_modules.push_back(std::move(router));
  };
  for (const NodeId n : construction_order(nodes)) {
    if (m_cut && !m_cut->local(n)) continue;  // on another rank
    const NodeId r = m_topology.router_of(n);
    if (!routers[r]) add_router(r);
    auto endpoint = std::make_unique<EndpointShell>(
        module_name("endpoint", n, m_topology).c_str(),
        EndpointCore(n, *m_sources[n], observer, m_ledger, m_pool, config.fabric()), m_clock,
        endpoint_args...);
    // The cap bounds memory past saturation. Synthetic and collective runs report a queue that
    // reached it (capped_sources()): their offered load is then undercounted. The CPU programs'
    // adapters (PcieEndpoint) reach it too, with many small messages behind a slow injection
    // channel, but it changes nothing they measure, so they report nothing: their CPUs wait on
    // node.tx_buffer_bytes already (which bounds what can queue here), a packet held back keeps
    // its creation cycle and its place in send order, only the queue's front is ever started,
    // and NodeMachine's observer ignores created(). result_limits_test.sh checks the results.
    endpoint->core().limit_queue(static_cast<std::size_t>(config.sim.source_queue_packets));
    if constexpr (std::is_same_v<RouterShell, RouterAt>) {
      if (config.rtl.vcup != BlockImpl::Model) {  // a torus: router n is node n's
        RtlRecording* recording =
            m_trace.traced(n) && config.trace.traces("vcup") ? record_rtl("rtl_vcup", n) : nullptr;
        m_modules.push_back(make_rtl_vcup(
            module_name("rtl_vcup", n, m_topology), "node " + m_topology.format(n), *routers[r],
            m_tree_set, m_clock, m_rtl_vcup_stats, flop_seed(config.sim.seed, n, RtlBlock::VcUp),
            config.rtl.vcup, recording));
      }
    }
    endpoints[n] = endpoint.get();
    m_endpoint_wakers[n] = [e = endpoint.get()] { e->wake(); };
    m_modules.push_back(std::move(endpoint));
  }
  for (NodeId r = 0; r < router_count; ++r) {
    if (!routers[r] && m_topology.locals(r) == 0) add_router(r);  // a fat tree's upper switches
    if (!routers[r]) continue;                                    // on another rank
    m_routers.push_back(&routers[r]->core());
    if constexpr (std::is_same_v<RouterShell, RouterAt>) m_at_routers.push_back(routers[r]);
  }
  for (NodeId n = 0; n < nodes; ++n) {
    if (endpoints[n]) m_endpoints.push_back(&endpoints[n]->core());
  }
  if constexpr (std::is_same_v<RouterShell, RouterAt>) {
    // One process (wormhole is refused over ranks). The project's own test that the counts are
    // needed runs without them.
    if (m_router_shared.worm_bubble && !std::getenv("ANGARA_TEST_NO_RING_COUNTS")) {
      m_ring_budget = std::make_unique<RingBudget>(torus(), m_router_shared.vcs.p2p,
                                                   config.router.buffer_flits);
      for (RouterAt* router : routers) router->set_ring_budget(*m_ring_budget);
    }
  }
  // Multi-socket indices follow binding order, so every router's out[p] and in[p] are bound in
  // port order, and the local ports last.
  if (const FatTree* tree = m_topology.fat_tree()) {
    // Level by level above the leaves, each switch's down links in port order. A switch's up
    // links are bound at the next level, in order too: its up port j leads to the j-th switch
    // above it in index order.
    for (int level = 1; level < tree->levels(); ++level) {
      for (int index = 0; index < tree->switches_per_level(); ++index) {
        const NodeId s = tree->switch_at(level, index);
        for (int port = 0; port < tree->k(); ++port) {
          const NodeId below = tree->peer(s, static_cast<PortId>(port)).router;
          routers[s]->out.bind(routers[below]->in);
          routers[below]->out.bind(routers[s]->in);
        }
      }
    }
  } else if (!m_topology.torus()) {
    // A Cayley graph, port by port as a torus: out[p] of every router to in[p] of its peer.
    for (PortId p = 0; p < m_topology.max_ports(); ++p) {
      for (NodeId n = 0; n < nodes; ++n) {
        routers[n]->out.bind(routers[m_topology.peer(n, p).router]->in);
      }
    }
  } else {
    // Port by port: out[d] of every router to in[d] of its neighbour in direction d.
    const Torus& t = torus();
    for (int d = 0; d < t.direction_count(); ++d) {
      const Direction dir = Direction::from_index(d);
      for (NodeId n = 0; n < nodes; ++n) {
        const NodeId up = t.neighbor(n, dir.opposite());
        bind_link(up, dir, n, routers[up], routers[n]);
      }
    }
  }
  for (NodeId n = 0; n < nodes; ++n) {  // a router's nodes in port order
    if (!endpoints[n]) continue;
    const NodeId r = m_topology.router_of(n);
    RouterShell* router = routers[r];
    endpoints[n]->inject.bind(router->in);
    router->out.bind(endpoints[n]->eject);
    if constexpr (std::is_same_v<EndpointShell, EndpointLt>) {
      endpoints[n]->connect(*router, static_cast<PortId>(router->core().first_local() +
                                                         (n - m_topology.first_node(r))));
    }
  }
  if constexpr (std::is_same_v<RouterShell, RouterLt>) {
    std::vector<LtSwitch*> switches;
    for (RouterLt* router : routers) switches.push_back(&router->lt_switch());
    m_lt_fabric = std::make_unique<LtFabric>(
        std::move(switches), std::vector<EjectionEnd*>(endpoints.begin(), endpoints.end()),
        *m_wake_calendar, config.sim.lt_buffers);
  }
}

template <typename RouterShell>
void System::bind_link(NodeId up, Direction dir, NodeId down, RouterShell* from, RouterShell* to) {
  if (from && to) {
    from->out.bind(to->in);
    return;
  }
  if (!from && !to) return;
  const LinkId link = Cut::link(torus(), up, dir);
  const std::string name = fmt::format("cut_{}_{}", link, from ? "tx" : "rx");
  const CutLinkEnd end{link, m_topology.format(up) + " " + dir.name(), *m_cut, m_pool, m_clock};
  if (from) {
    auto tx = std::make_unique<LinkTx>(name.c_str(), end);
    from->out.bind(tx->in);
    m_cut->add(*tx, link, down);
    m_modules.push_back(std::move(tx));
  } else {
    auto rx = std::make_unique<LinkRx>(name.c_str(), end);
    rx->out.bind(to->in);
    m_cut->add(*rx, link, up);
    m_modules.push_back(std::move(rx));
  }
}

std::unique_ptr<CollectiveUnit> System::collective_unit(NodeId n, const Config& config) {
  if (m_trees.empty()) return nullptr;
  std::unique_ptr<ReducerBlock> reducer;
  if (config.rtl.reducer != BlockImpl::Model) {
    RtlRecording* recording = m_trace.traced(n) && config.trace.traces("reducer")
                                  ? record_rtl("rtl_reducer", n)
                                  : nullptr;
    reducer = make_rtl_reducer(module_name("rtl_reducer", n, m_topology),
                               "node " + m_topology.format(n), config.collective, m_clock,
                               m_rtl_stats, flop_seed(config.sim.seed, n, RtlBlock::Reducer),
                               config.rtl.reducer, recording);
  }
  auto node = std::make_unique<CollectiveNode>(n, m_tree_set, config.collective, m_pool,
                                               config.sim.mode == SimMode::At, std::move(reducer));
  if (m_trace.traced(n)) node->set_trace(m_trace.pegroup(n, m_trees));
  return node;
}

RtlRecording* System::record_rtl(const char* block, NodeId n) {
  if (m_rtl_dir.empty()) {
    std::string dir = (std::filesystem::temp_directory_path() / "angara-rtl-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      model_error(
          report_id::kRtl,
          fmt::format("cannot make a directory for the RTL's waveforms in {}: {}",
                      std::filesystem::temp_directory_path().string(), std::strerror(errno)));
    }
    m_rtl_dir = dir;
  }
  const std::string name = module_name(block, n, m_topology);
  auto recording = std::make_unique<RtlRecording>();
  recording->waveform = m_rtl_dir / (name + ".vcd");
  m_rtl_recordings.push_back({name, std::move(recording)});
  return m_rtl_recordings.back().recording.get();
}

void System::wake_endpoints() {
  for (auto& wake : m_endpoint_wakers) wake();
}

void System::stop_creating() {
  for (EndpointCore* e : m_endpoints) e->stop_creating(m_clock.now());
}

void System::stop_creating(NodeId node) {
  m_endpoints.at(node)->stop_creating(m_clock.now());
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

ContentionSummary System::contention() const {
  std::array<std::uint64_t, 8> sums{};  // transit copies' counts, then injected copies'
  std::uint64_t hottest = 0;            // in millionths, for the maximum over ranks
  Cycle ahead = 0;
  for (const RouterCore* router : m_routers) {
    std::size_t i = 0;
    for (const Contention* c : {&router->contention(), &router->injected()}) {
      for (std::uint64_t n : {c->copies, c->waited, c->wait_cycles, c->busy_cycles}) sums[i++] += n;
    }
    hottest = std::max(hottest, static_cast<std::uint64_t>(router->contention().queue() * 1e6));
    ahead = std::max(ahead, router->booked_ahead());
  }
  m_ranks.sum(sums);
  return {{sums[0], sums[1], sums[2], sums[3]},
          static_cast<double>(m_ranks.max(hottest)) / 1e6,
          m_ranks.max(ahead),
          {sums[4], sums[5], sums[6], sums[7]}};
}

int System::capped_sources() const {
  return static_cast<int>(std::count_if(m_endpoints.begin(), m_endpoints.end(),
                                        [](const EndpointCore* e) { return e->queue_capped(); }));
}

void System::check_conservation() const {
  if (!m_ranks.parallel()) return;
  const int nodes = m_topology.node_count();
  auto [sums, reach] = m_ledger.counts_by_source(nodes);
  m_ranks.sum(sums);
  m_ranks.max(reach);
  for (int src = 0; src < nodes; ++src) {
    const std::uint64_t injected = sums[2 * src], delivered = sums[2 * src + 1];
    if (delivered == injected && reach[src] <= injected) continue;
    shared_model_error(
        report_id::kConservation,
        fmt::format("the packets of node {}, over all ranks: {} injected, {} delivered{}",
                    m_topology.node_name(static_cast<NodeId>(src)), injected, delivered,
                    reach[src] > injected
                        ? fmt::format(", one numbered #{} that was never injected", reach[src] - 1)
                        : ""));
  }
}

std::optional<std::string> System::oldest_blocked(Cycle now) const {
  NodeNote oldest;  // the first of the oldest in node order, as one rank would find it
  for (const RouterAt* r : m_at_routers) {
    auto b = r->oldest_blocked(now);
    if (b) oldest.keep_first({b->since, r->core().id(), std::move(b->what)});
  }
  oldest = first_over_ranks(std::move(oldest), m_ranks);
  if (oldest.empty()) return std::nullopt;
  return oldest.what;
}

}  // namespace angara
