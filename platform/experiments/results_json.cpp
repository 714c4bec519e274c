#include "platform/experiments/results_json.h"

#include "platform/experiments/app_experiment.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "platform/config/config_loader.h"

namespace angara {

namespace {

const char* mode_name(const Config& c) {
  return c.sim.mode == SimMode::Lt ? "LT" : "AT";
}

LatencyStats completion_stats(const std::vector<Cycle>& completion) {
  LatencyStats s;
  for (Cycle c : completion) s.add(c);
  return s;
}

std::string op_name(const Config& c) {
  return config_to_json(c)["workload"]["op"].get<std::string>();
}

std::string algorithm_name(const Config& c) {
  return config_to_json(c)["workload"]["algorithm"].get<std::string>();
}

// Completion times of the operations: min, mean, max in cycles and ns, and each one.
void add_completion(nlohmann::ordered_json& j, const std::vector<Cycle>& completion,
                    const Config& c) {
  const double ns = c.router.cycle_ns();
  const LatencyStats s = completion_stats(completion);
  j["operations"] = completion.size();
  j["completion_cycles"] = {{"min", s.min()}, {"mean", s.mean()}, {"max", s.max()}};
  j["completion_ns"] = {{"min", static_cast<double>(s.min()) * ns},
                        {"mean", s.mean() * ns},
                        {"max", static_cast<double>(s.max()) * ns}};
  j["per_operation_cycles"] = completion;
}

// A 64-bit digest as 16 hex digits (a JSON number would lose bits in many readers).
std::string digest_hex(std::uint64_t digest) {
  return fmt::format("{:016x}", digest);
}

}  // namespace

void add_run(nlohmann::ordered_json& j, Cycle sim_cycles, double wall_seconds, const Config& c) {
  j["sim_cycles"] = sim_cycles;
  j["sim_ns"] = static_cast<double>(sim_cycles) * c.router.cycle_ns();
  j["wall_seconds"] = wall_seconds;
  j["config"] = config_to_json(c);
}

nlohmann::ordered_json to_json(const ExperimentResult& r) {
  const double ns = r.config.router.cycle_ns();
  const auto& lat = r.latency;
  nlohmann::ordered_json histogram = nlohmann::ordered_json::array();
  for (const auto& bin : lat.histogram(32)) {
    histogram.push_back({{"lo", bin.lo}, {"hi", bin.hi}, {"count", bin.count}});
  }
  nlohmann::ordered_json j;
  j["nodes"] = r.nodes;
  j["packets_delivered"] = r.packets_delivered;
  j["packets_injected_total"] = r.packets_injected_total;
  j["packets_delivered_total"] = r.packets_delivered_total;
  j["latency_cycles"] = {
      {"mean", lat.mean()}, {"p50", lat.percentile(0.5)}, {"p99", lat.percentile(0.99)},
      {"min", lat.min()},   {"max", lat.max()},           {"histogram", histogram}};
  j["latency_ns"] = {{"mean", lat.mean() * ns},
                     {"p50", static_cast<double>(lat.percentile(0.5)) * ns},
                     {"p99", static_cast<double>(lat.percentile(0.99)) * ns}};
  j["offered_flits_per_node_cycle"] = r.offered_flits_per_node_cycle;
  j["accepted_flits_per_node_cycle"] = r.accepted_flits_per_node_cycle;
  j["saturated"] = r.saturated;
  j["drain_complete"] = r.drain_complete;
  j["mean_hops"] = r.mean_hops;
  j["flit_hops"] = r.flit_hops;
  add_run(j, r.sim_cycles, r.wall_seconds, r.config);
  return j;
}

std::string summary_line(const ExperimentResult& r) {
  const auto& lat = r.latency;
  return fmt::format(
      "{} torus {}, uniform {:.3f} flits/node/cycle: accepted {:.3f}, latency mean {:.1f} p50 {} "
      "p99 {} cycles ({:.1f} ns mean), {} packets measured{}, {} cycles in {:.2f} s",
      fmt::join(r.config.topology.dims, "x"), mode_name(r.config), r.offered_flits_per_node_cycle,
      r.accepted_flits_per_node_cycle, lat.mean(), lat.percentile(0.5), lat.percentile(0.99),
      lat.mean() * r.config.router.cycle_ns(), r.packets_delivered,
      r.saturated ? " (SATURATED)" : "", r.sim_cycles, r.wall_seconds);
}

nlohmann::ordered_json to_json(const CollectiveResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = "collective";
  j["op"] = op_name(r.config);
  j["nodes"] = r.nodes;
  j["trees"] = r.trees;
  j["pe_nodes"] = r.pe_nodes;
  j["root"] = r.root;
  add_completion(j, r.completion, r.config);
  j["deliveries_checked"] = r.deliveries;
  j["background_packets_delivered"] = r.background_packets;
  j["results_digest"] = digest_hex(r.results_digest);
  add_run(j, r.sim_cycles, r.wall_seconds, r.config);
  return j;
}

std::string summary_line(const CollectiveResult& r) {
  const LatencyStats s = completion_stats(r.completion);
  const double ns = r.config.router.cycle_ns();
  return fmt::format(
      "{} torus {}, {} of {} flits on tree {} ({} processors): completion min {} mean {:.1f} max "
      "{} cycles ({:.1f} ns mean) over {} operations, {} deliveries checked, {:.2f} s",
      fmt::join(r.config.topology.dims, "x"), mode_name(r.config), op_name(r.config),
      r.config.workload.payload_flits, r.config.workload.tree, r.pe_nodes, s.min(), s.mean(),
      s.max(), s.mean() * ns, r.completion.size(), r.deliveries, r.wall_seconds);
}

nlohmann::ordered_json to_json(const SoftwareResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = "software";
  j["op"] = op_name(r.config);
  j["algorithm"] = algorithm_name(r.config);
  j["nodes"] = r.nodes;
  j["participants"] = r.participants;
  j["root"] = r.root;
  add_completion(j, r.completion, r.config);
  j["results_checked"] = r.results_checked;
  j["messages_delivered"] = r.messages;
  j["results_digest"] = digest_hex(r.results_digest);
  add_run(j, r.sim_cycles, r.wall_seconds, r.config);
  return j;
}

std::string summary_line(const SoftwareResult& r) {
  const LatencyStats s = completion_stats(r.completion);
  const double ns = r.config.router.cycle_ns();
  return fmt::format(
      "{} torus {}, software {} ({}) of {} bytes, {} participants: completion min {} mean {:.1f} "
      "max {} cycles ({:.1f} ns mean) over {} operations, {} results checked, {} messages, "
      "{:.2f} s",
      fmt::join(r.config.topology.dims, "x"), mode_name(r.config), op_name(r.config),
      algorithm_name(r.config), r.config.workload.payload_bytes(), r.participants, s.min(),
      s.mean(), s.max(), s.mean() * ns, r.completion.size(), r.results_checked, r.messages,
      r.wall_seconds);
}

namespace {

const char* app_name(const Config& c) { return c.workload.kind == WorkloadKind::Heat ? "heat" : "spmv"; }

}  // namespace

// Times in microseconds, performance in GFlop/s: the units of the spec's experiments.
nlohmann::ordered_json to_json(const AppResult& r) {
  const double us = r.config.router.cycle_ns() / 1000.0;
  nlohmann::ordered_json j;
  j["workload"] = app_name(r.config);
  j["algorithm"] = algorithm_name(r.config);
  j["nodes"] = r.nodes;
  j["iterations"] = r.iteration.size();
  j["iteration_us"] = r.mean_iteration() * us;
  nlohmann::ordered_json each = nlohmann::ordered_json::array();
  for (Cycle c : r.iteration) each.push_back(static_cast<double>(c) * us);
  j["per_iteration_us"] = each;
  j["compute_us"] = static_cast<double>(r.compute) * us;
  j["collective_us"] = r.collective_mean * us;
  j["collective_max_us"] = static_cast<double>(r.collective_max) * us;
  j["flops_per_iteration"] = r.flops_per_iteration;
  j["gflops"] = r.flops_per_iteration / (r.mean_iteration() * r.config.router.cycle_ns());
  if (r.config.workload.kind == WorkloadKind::Heat) {
    j["cells"] = static_cast<std::int64_t>(r.config.app.grid[0]) * r.config.app.grid[1];
    j["process_grid"] = {r.px, r.py};
  } else {
    j["rows"] = r.config.app.rows;
  }
  j["messages_delivered"] = r.messages;
  add_run(j, r.sim_cycles, r.wall_seconds, r.config);
  return j;
}

std::string summary_line(const AppResult& r) {
  const double us = r.config.router.cycle_ns() / 1000.0;
  return fmt::format(
      "{} torus {}, {} ({}) on {} nodes: {:.2f} us per iteration over {} (compute {:.2f} us, "
      "collective {:.2f} us mean), {:.2f} GFlop/s, {} messages, {:.2f} s",
      fmt::join(r.config.topology.dims, "x"), mode_name(r.config), app_name(r.config),
      algorithm_name(r.config), r.nodes, r.mean_iteration() * us, r.iteration.size(),
      static_cast<double>(r.compute) * us, r.collective_mean * us,
      r.flops_per_iteration / (r.mean_iteration() * r.config.router.cycle_ns()), r.messages,
      r.wall_seconds);
}

void write_file(const std::string& text, const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const auto tmp = std::filesystem::path(path.string() + ".partial");
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace angara
