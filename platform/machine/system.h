#pragma once
// The whole machine: the routers of the torus or fat tree, an endpoint on each node's router's
// local port, the wiring between them, the packet pool and the conservation ledger. `sim.mode`
// picks the timing shells (RouterAt/EndpointAt or RouterLt/EndpointLt); the cores, the wiring and
// everything the platform asks of the machine are the same in both.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectives/rtl/rtl_recording.h"
#include "collectives/rtl/rtl_stats.h"
#include "collectives/subnet/pe_group.h"
#include "collectives/subnet/tree.h"
#include "models/core/packet_ledger.h"
#include "models/core/packet_pool.h"
#include "models/endpoint/endpoint_core.h"
#include "models/fabric/ejection_end.h"
#include "models/fabric/fabric_protocol.h"
#include "models/router/ring_budget.h"
#include "models/router/router_core.h"
#include "models/topology/topology.h"
#include "platform/config/config.h"
#include "platform/machine/cut.h"
#include "platform/machine/trace_signals.h"

namespace angara {

class EndpointLt;
class RouterAt;
class RouterLt;
class LtFabric;
class WakeCalendar;

class System {
 public:
  // `sources[n]` feeds node n (null for a node on another rank); the observer hears every
  // created and delivered packet.
  System(const Config& config, std::vector<std::unique_ptr<TrafficSource>> sources,
         TrafficObserver& observer);
  ~System();

  const Topology& topology() const { return m_topology; }
  // The torus (workloads other than synthetic traffic run on a torus only).
  const Torus& torus() const { return *m_topology.torus(); }
  const FabricClock& clock() const { return m_clock; }
  // This rank's ledger (every packet's, on one rank).
  const PacketLedger& ledger() const { return m_ledger; }
  // Split over ranks: every packet injected on any rank was delivered on some rank, exactly once
  // (each rank checked its deliveries as they came); a SharedModelError if not. Every rank
  // calls it once the network is empty.
  void check_conservation() const;
  // What the RTL Reducers' transactors compared (rtl.reducer not "model"; zero otherwise).
  const RtlReducerStats& rtl_stats() const { return m_rtl_stats; }
  // What the RTL VCUps' transactors compared (rtl.vcup = "check"; zero otherwise).
  const RtlVcUpStats& rtl_vcup_stats() const { return m_rtl_vcup_stats; }
  // LT: what wakes the machine's modules (the node's CPUs and adapters too); null in AT.
  WakeCalendar* wake_calendar() { return m_wake_calendar.get(); }

  const TreeSet& trees() const { return m_tree_set; }
  // Split over MPI ranks: this rank's part of the machine and its cut links; null on one rank.
  Cut* cut() { return m_cut.get(); }
  const Ranks& ranks() const { return m_ranks; }

  // The waveforms recorded so far as VCD text (tracing on: config [trace]).
  std::string trace_vcd() const { return m_trace.vcd(m_clock); }
  bool tracing() const { return m_trace.on(); }
  // What the RTL blocks of traced nodes recorded (rtl.reducer not "model" with "reducer" among
  // trace.blocks, rtl.vcup = "check" with "vcup"), each with the name its files take beside the
  // VCD (rtl_reducer_1_0, rtl_vcup_1_0).
  struct NamedRecording {
    std::string name;
    std::unique_ptr<RtlRecording> recording;
  };
  const std::vector<NamedRecording>& rtl_recordings() const { return m_rtl_recordings; }

  // Every endpoint, or node `node`'s, stops creating packets from now on.
  void stop_creating();
  void stop_creating(NodeId node);
  // Every endpoint asks its source again for work (a collective workload started an operation).
  void wake_endpoints();
  void wake_endpoint(NodeId node) { m_endpoint_wakers.at(node)(); }
  std::uint64_t flit_hops() const;
  // Every router's core (this rank's): the nodes' in node order, then a fat tree's switches.
  const std::vector<const RouterCore*>& routers() const { return m_routers; }
  std::size_t queued_at_sources() const;
  // Nodes whose source queue was full with a packet waiting to enter (sim.source_queue_packets).
  int capped_sources() const;
  // The packet that has waited longest at the head of a router buffer, described for a person
  // (over every rank: each calls it, and rank 0 gets the answer).
  std::optional<std::string> oldest_blocked(Cycle now) const;
  // How much the copies the routers sent waited (contention.h), over every rank: each calls it.
  ContentionSummary contention() const;

 private:
  template <typename RouterShell, typename EndpointShell, typename... ShellArgs>
  void build(const Config& config, TrafficObserver& observer, ShellArgs... endpoint_args);
  // Binds the link from `up` to `down` (direction `dir`): router to router, or to the end of a
  // link cut between this rank and another. Either router is null when on another rank.
  template <typename RouterShell>
  void bind_link(NodeId up, Direction dir, NodeId down, RouterShell* from, RouterShell* to);
  std::unique_ptr<CollectiveUnit> collective_unit(NodeId node, const Config& config);
  // A recording for node n's RTL `block` ("rtl_reducer"), its waveform in a directory of the
  // run's own.
  RtlRecording* record_rtl(const char* block, NodeId n);

  Topology m_topology;
  const Ranks& m_ranks;
  std::unique_ptr<Cut> m_cut;
  RouterShared m_router_shared;
  FabricClock m_clock;
  RtlReducerStats m_rtl_stats;
  RtlVcUpStats m_rtl_vcup_stats;
  PacketLedger m_ledger;
  PacketPool m_pool;
  std::vector<Tree> m_trees;
  TreeSet m_tree_set{};
  std::vector<std::unique_ptr<TrafficSource>> m_sources;
  std::vector<std::unique_ptr<sc_core::sc_module>> m_modules;
  std::vector<const RouterCore*> m_routers;
  std::vector<const RouterAt*> m_at_routers;      // AT: their switches, for the watchdog
  std::unique_ptr<WakeCalendar> m_wake_calendar;  // LT
  std::unique_ptr<LtFabric> m_lt_fabric;          // LT: the fabric the routers call along directly
  std::unique_ptr<RingBudget> m_ring_budget;      // AT, wormhole under the bubble: ring counts
  std::vector<EndpointCore*> m_endpoints;
  std::vector<std::function<void()>> m_endpoint_wakers;
  TraceSignals m_trace;  // the names and signals of the waveforms ([trace])
  std::vector<NamedRecording> m_rtl_recordings;
  std::filesystem::path m_rtl_dir;  // the RTL's waveforms as they are written; empty: none
};

}  // namespace angara
