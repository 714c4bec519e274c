#include "platform/experiments/probe_run.h"

#include <deque>
#include <map>
#include <memory>

#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "platform/machine/system.h"
#include "workloads/synthetic/scripted_traffic.h"

namespace angara {
namespace {

// Matches deliveries to probes by (src, creation cycle, destination): each must be unique.
class ProbeRecorder : public TrafficObserver {
 public:
  void created(const PacketRequest&, NodeId) override {}
  void delivered(const Packet& p, NodeId /*at*/) override {
    m_seen[{p.header.src, p.header.dst, p.created}] = {p.tail_at - p.created, p.hops};
  }
  std::map<std::tuple<NodeId, NodeId, Cycle>, std::pair<Cycle, int>> m_seen;
};

}  // namespace

std::vector<ProbeDelivery> run_probes(const Config& config, const std::vector<Probe>& probes) {
  config.validate();
  const int nodes = config.topology.node_count();
  std::vector<std::deque<PacketRequest>> scripts(nodes);
  for (const Probe& p : probes) scripts.at(p.src).push_back(p.packet);
  std::vector<std::unique_ptr<TrafficSource>> sources;
  for (auto& s : scripts) {
    std::sort(s.begin(), s.end(), [](auto& a, auto& b) { return a.created < b.created; });
    sources.push_back(std::make_unique<ScriptedTraffic>(std::move(s)));
  }
  ProbeRecorder recorder;
  System system(config, std::move(sources), recorder);
  sc_core::sc_start();
  if (system.ledger().in_flight() > 0) {
    model_error(report_id::kDeadlock,
                "probes stuck: " + system.oldest_blocked(system.clock().now()).value_or("?"));
  }
  std::vector<ProbeDelivery> out;
  for (const Probe& p : probes) {
    const auto it = recorder.m_seen.find({p.src, p.packet.dst, p.packet.created});
    if (it == recorder.m_seen.end()) model_error(report_id::kDeadlock, "a probe was not delivered");
    out.push_back({p, it->second.first, it->second.second});
  }
  return out;
}

}  // namespace angara
