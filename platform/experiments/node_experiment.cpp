#include "platform/experiments/node_experiment.h"

#include <fmt/format.h>

#include "platform/experiments/results_json.h"
#include "platform/machine/node_machine.h"

namespace angara {
namespace {

bool is_msgrate(const Config& c) {
  return c.workload.kind == WorkloadKind::MsgRate;
}

// Figures of one size, in the units of the results files.
struct Figures {
  double time_ns, rate_mmsg_s, bandwidth_gbit_s, half_rtt_ns, bound_gbit_s;
};

Figures figures(const MessageBenchResult& r, const SizePoint& p) {
  Figures f{};
  f.time_ns = static_cast<double>(p.cycles) * r.config.router.cycle_ns();
  f.bound_gbit_s = message_bound_gbps(r.config.pcie, r.config.fabric(), p.bytes);
  if (is_msgrate(r.config)) {
    f.rate_mmsg_s = p.count / f.time_ns * 1e3;
    f.bandwidth_gbit_s = 8.0 * p.bytes * p.count / f.time_ns;
  } else {
    f.half_rtt_ns = f.time_ns / (2.0 * p.count);
    f.bandwidth_gbit_s = 8.0 * p.bytes / f.half_rtt_ns;
  }
  return f;
}

// Each field was written on one rank (both programs' ranks, split over MPI ranks): the sums.
std::vector<SizePoint> over_ranks(std::vector<SizePoint> points, const Ranks& ranks) {
  if (!ranks.parallel()) return points;
  points.resize(ranks.max(points.size()));  // a rank without node 0 or the peer has none
  std::vector<std::uint64_t> fields;
  for (const SizePoint& p : points) {
    fields.insert(fields.end(), {static_cast<std::uint64_t>(p.bytes),
                                 static_cast<std::uint64_t>(p.count), p.start, p.end, p.cycles});
  }
  ranks.sum(fields);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint64_t* f = &fields[5 * i];
    points[i] = {static_cast<int>(f[0]), static_cast<int>(f[1]), f[2], f[3], f[4]};
  }
  return points;
}

}  // namespace

MessageBenchResult run_message_benchmark(const Config& config, const ProgressSink& progress) {
  return record_run<MessageBenchResult>(config, [&](MessageBenchResult& r) {
    NodeMachine machine(config);
    const Torus& torus = machine.torus();
    const auto& wl = config.workload;
    r.peer =
        wl.peer.empty() ? torus.neighbor(0, Direction{0, false}) : config.topology.node_at(wl.peer);
    r.hops = torus.min_hops(0, r.peer);
    const NetAddr first{0, 0}, second{r.peer, 0};
    if (machine.local(0)) {
      MessageChannel& channel = machine.host(0).channel(0);
      machine.load(0, is_msgrate(config) ? msgrate_sender(channel, second, wl, r.points)
                                         : pingpong_initiator(channel, second, wl, r.points));
    }
    if (machine.local(r.peer)) {
      MessageChannel& channel = machine.host(r.peer).channel(0);
      machine.load(r.peer, is_msgrate(config) ? msgrate_receiver(channel, first, wl, r.points)
                                              : pingpong_responder(channel, first, wl));
    }
    machine.run(progress);
    r.points = over_ranks(std::move(r.points), machine.system().ranks());
    if (is_msgrate(config)) msgrate_cycles(r.points);
    r.split = machine.split_record();
    r.contention = machine.system().contention();
    return machine.now();
  });
}

nlohmann::ordered_json to_json(const MessageBenchResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = is_msgrate(r.config) ? "msgrate" : "pingpong";
  j["nodes"] = r.nodes;
  j["peer"] = r.peer;
  j["hops"] = r.hops;
  nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
  for (const SizePoint& p : r.points) {
    const Figures f = figures(r, p);
    nlohmann::ordered_json s;
    s["bytes"] = p.bytes;
    if (is_msgrate(r.config)) {
      s["messages"] = p.count;
      s["time_ns"] = f.time_ns;
      s["rate_mmsg_s"] = f.rate_mmsg_s;
    } else {
      s["round_trips"] = p.count;
      s["half_rtt_ns"] = f.half_rtt_ns;
    }
    s["bandwidth_gbit_s"] = f.bandwidth_gbit_s;
    s["bound_gbit_s"] = f.bound_gbit_s;
    sizes.push_back(s);
  }
  j["sizes"] = sizes;
  add_run(j, r);
  return j;
}

std::string to_csv(const MessageBenchResult& r) {
  std::string csv = is_msgrate(r.config)
                        ? "bytes,messages,time_ns,rate_mmsg_s,bandwidth_gbit_s,bound_gbit_s\n"
                        : "bytes,round_trips,half_rtt_ns,bandwidth_gbit_s,bound_gbit_s\n";
  for (const SizePoint& p : r.points) {
    const Figures f = figures(r, p);
    csv += is_msgrate(r.config)
               ? fmt::format("{},{},{:.1f},{:.4f},{:.3f},{:.3f}\n", p.bytes, p.count, f.time_ns,
                             f.rate_mmsg_s, f.bandwidth_gbit_s, f.bound_gbit_s)
               : fmt::format("{},{},{:.1f},{:.3f},{:.3f}\n", p.bytes, p.count, f.half_rtt_ns,
                             f.bandwidth_gbit_s, f.bound_gbit_s);
  }
  return csv;
}

RunOutput message_benchmark_output(const Config& config, const ProgressSink& progress) {
  const MessageBenchResult r = run_message_benchmark(config, progress);
  return {to_json(r), summary_line(r), {{kPerSizeExtension, "per size", to_csv(r)}}};
}

std::string summary_line(const MessageBenchResult& r) {
  const SizePoint& small = r.points.front();
  const SizePoint& large = r.points.back();
  const Figures fs = figures(r, small), fl = figures(r, large);
  if (is_msgrate(r.config)) {
    return with_wall_time(
        r, fmt::format("msgrate node 0 -> {} ({} hops): {} B {:.2f} M msg/s ... {} B {:.2f} M "
                       "msg/s, {:.1f} Gbit/s (bound {:.1f})",
                       r.peer, r.hops, small.bytes, fs.rate_mmsg_s, large.bytes, fl.rate_mmsg_s,
                       fl.bandwidth_gbit_s, fl.bound_gbit_s));
  }
  return with_wall_time(
      r, fmt::format("pingpong node 0 <-> {} ({} hops): half round trip {} B {:.1f} ns ... {} B "
                     "{:.1f} ns ({:.1f} Gbit/s)",
                     r.peer, r.hops, small.bytes, fs.half_rtt_ns, large.bytes, fl.half_rtt_ns,
                     fl.bandwidth_gbit_s));
}

}  // namespace angara
