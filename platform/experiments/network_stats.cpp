#include "platform/experiments/network_stats.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

namespace angara {
namespace {

// The columns that say where a row is: the router's index, then its coordinates on a torus
// (x, y, z, w: one column per dimension; a fat tree has none).
class Where {
 public:
  explicit Where(const Topology& topology) : m_topology(topology) {
    if (const Torus* t = topology.torus()) m_dims = t->dims();
  }
  std::string header() const {
    std::string h = "router";
    for (int d = 0; d < m_dims; ++d)
      h += fmt::format(",{}", static_cast<char>(std::tolower(kDimNames[d])));
    return h;
  }
  std::string row(NodeId router) const {
    std::string r = fmt::format("{}", router);
    for (int d = 0; d < m_dims; ++d) r += fmt::format(",{}", m_topology.torus()->coords(router)[d]);
    return r;
  }

 private:
  const Topology& m_topology;
  int m_dims = 0;
};

// Mean and maximum of values added one by one; the first of the largest is kept.
struct Extremes {
  double sum = 0;
  double max = -1;
  std::size_t count = 0;
  std::size_t argmax = 0;

  void add(double v) {
    if (v > max) max = v, argmax = count;
    sum += v;
    ++count;
  }
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
  nlohmann::ordered_json json() const { return {{"mean", mean()}, {"max", count ? max : 0.0}}; }
};

}  // namespace

std::vector<std::string> network_stats_extensions(const Config& config) {
  if (!config.stats.network) return {};
  // Plain LT books links only: a packet waits at a router as long as its output's calendar
  // says, in a buffer without bounds, so there is no occupancy to report.
  if (!config.sim.buffers()) return {".links.csv", ".routers.csv"};
  return {".links.csv", ".vcs.csv", ".routers.csv"};
}

NetworkStats network_stats(const System& system, const Config& config) {
  const Topology& topology = system.topology();
  const Where where(topology);
  const double window = static_cast<double>(config.sim.measure_cycles);
  const bool buffers = config.sim.buffers();

  std::string links =
      where.header() + ",port,packets,flits,busy_cycles,utilisation,flits_per_cycle\n";
  std::string vcs = where.header() + ",port,vc,mean_flits,max_flits,buffer_flits\n";
  std::string routers = where.header() + ",packets,flits,wait_cycles,mean_wait_cycles\n";

  Extremes link_util, link_rate, eject_util, vc_mean, vc_max;
  struct Place {
    NodeId router;
    PortId port;
    VcId vc;
  };
  std::vector<Place> link_places, vc_places;
  std::uint64_t link_flits = 0, packets = 0, wait = 0;
  for (const RouterCore* core : system.routers()) {
    const RouterStats& s = *core->stats();
    const NodeId r = core->id();
    // Link ports, then the local ports (ejection out, injection in); the PEGroup's internal port
    // and the collective VCs carry nothing in synthetic traffic.
    for (int p = 0; p < core->pegroup_port(); ++p) {
      const auto port = static_cast<PortId>(p);
      const bool link = core->is_link(port);
      const RouterStats::Output& o = s.output(port);
      const double util = static_cast<double>(o.busy) / window;
      const double rate = static_cast<double>(o.flits) / window;
      links += fmt::format("{},{},{},{},{},{},{}\n", where.row(r), core->port_name(port), o.packets,
                           o.flits, o.busy, util, rate);
      if (link) {
        link_util.add(util);
        link_rate.add(rate);
        link_places.push_back({r, port, 0});
        link_flits += o.flits;
      } else {
        eject_util.add(util);
      }
      if (!buffers) continue;
      for (int v = 0; v < core->shared().vcs.p2p; ++v) {
        const auto vc = static_cast<VcId>(v);
        const RouterStats::InputVc in = s.input_vc(port, vc);
        vcs += fmt::format("{},{},{},{},{},{}\n", where.row(r), core->port_name(port), v,
                           in.mean_flits, in.max_flits, core->buffer_flits(port, vc));
        vc_mean.add(in.mean_flits);
        vc_max.add(in.max_flits);
        vc_places.push_back({r, port, vc});
      }
    }
    const RouterStats::Counters& c = s.counters();
    routers += fmt::format("{},{},{},{},{}\n", where.row(r), c.packets, c.flits, c.wait_cycles,
                           c.packets ? static_cast<double>(c.wait_cycles) / c.packets : 0.0);
    packets += c.packets;
    wait += c.wait_cycles;
  }

  NetworkStats out;
  nlohmann::ordered_json& j = out.summary;
  j["window_cycles"] = config.sim.measure_cycles;
  j["links"] = link_util.count;
  j["link_flits"] = link_flits;
  j["link_utilisation"] = link_util.json();
  j["link_flits_per_cycle"] = link_rate.json();
  if (link_util.count > 0) {
    const Place& b = link_places[link_util.argmax];
    const RouterCore& core = *system.routers()[b.router];
    j["busiest_link"] = {{"router", topology.format(b.router)},
                         {"port", core.port_name(b.port)},
                         {"utilisation", link_util.max},
                         {"flits_per_cycle", core.stats()->output(b.port).flits / window}};
  }
  j["ejection_utilisation"] = eject_util.json();
  if (buffers) {
    j["vc_occupancy_flits"] = {{"mean", vc_mean.mean()},
                               {"max", vc_max.count ? static_cast<int>(vc_max.max) : 0}};
    if (vc_max.count > 0) {
      const Place& f = vc_places[vc_max.argmax];
      const RouterCore& core = *system.routers()[f.router];
      const RouterStats::InputVc in = core.stats()->input_vc(f.port, f.vc);
      j["fullest_vc"] = {{"router", topology.format(f.router)},
                         {"port", core.port_name(f.port)},
                         {"vc", f.vc},
                         {"mean_flits", in.mean_flits},
                         {"max_flits", in.max_flits}};
    }
  } else {
    j["vc_occupancy_flits"] = nullptr;  // plain LT: no buffers (see above)
  }
  j["router_packets"] = packets;
  j["mean_wait_cycles"] = packets ? static_cast<double>(wait) / static_cast<double>(packets) : 0.0;

  out.files.push_back({".links.csv", "per link", std::move(links)});
  if (buffers) out.files.push_back({".vcs.csv", "per VC", std::move(vcs)});
  out.files.push_back({".routers.csv", "per router", std::move(routers)});
  return out;
}

}  // namespace angara
