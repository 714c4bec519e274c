#include "platform/experiments/results_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>
#include <utility>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "models/core/latency_stats.h"
#include "platform/config/config_loader.h"
#include "platform/config/config_values.h"
#include "platform/experiments/lt_validity.h"
#include "platform/files/output_file.h"
#include "platform/version/version.h"

namespace angara {
namespace {

// The config file's spelling of an enum value.
template <typename E>
std::string config_name(E value) {
  return config_values::json_value(value).template get<std::string>();
}

LatencyStats completion_stats(const std::vector<Cycle>& completion) {
  LatencyStats s;
  for (Cycle c : completion) s.add(c);
  return s;
}

}  // namespace

void add_run(nlohmann::ordered_json& j, const RunRecord& r) {
  if (r.capped_sources > 0) j["source_queues_capped"] = r.capped_sources;
  j["sim_cycles"] = r.sim_cycles;
  j["sim_ns"] = static_cast<double>(r.sim_cycles) * r.config.router.cycle_ns();
  j["wall_seconds"] = r.wall_seconds;
  if (r.config.partitions.empty()) {  // a partitioned run's are in each partition's results
    const Contention& c = r.contention.all;
    j["contention"] = {{"transit_copies", c.copies},
                       {"waited_share", c.waited_share()},
                       {"mean_queue", c.queue()},
                       {"hottest_router_queue", r.contention.hottest_queue}};
    if (r.config.sim.mode == SimMode::Lt) {
      j["lt_validity"] = lt_validity_json(r.contention, r.config.sim.lt_buffers);
      j["lt_booked_ahead_cycles"] = r.contention.booked_ahead;
    }
  }
  if (r.split.ranks > 1) {
    nlohmann::ordered_json work = nlohmann::ordered_json::array();
    for (std::size_t rank = 0; rank < r.split.work.size(); ++rank) {
      const RankWork& w = r.split.work[rank];
      work.push_back({{"rank", rank},  // first: a sweep's CSV names the columns by it
                      {"kernel_seconds", w.kernel_seconds},
                      {"exchange_seconds", w.exchange_seconds},
                      {"exchanges", w.windows},
                      {"records_sent", w.records},
                      {"bytes_sent", w.bytes},
                      {"peak_memory_mib", static_cast<double>(w.peak_memory_kib) / 1024.0}});
    }
    j["ranks"] = {{"count", r.split.ranks}, {"grid", r.split.grid}, {"each", work}};
  }
  j["config"] = config_to_json(r.config);
  j["angara_tlm"] = {{"version", version()},
                     {"git_revision", git_revision()},
                     {"results_schema", kResultsSchemaVersion}};
}

std::string capped_note(const RunRecord& r) {
  if (r.capped_sources == 0) return {};
  return fmt::format(
      "the source queues of {} nodes reached sim.source_queue_packets = {} and "
      "their sources waited",
      r.capped_sources, r.config.sim.source_queue_packets);
}

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

std::string completion_summary(const std::vector<Cycle>& completion, const Config& c) {
  const LatencyStats s = completion_stats(completion);
  return fmt::format(
      "completion min {} mean {:.1f} max {} cycles ({:.1f} ns mean) over {} operations", s.min(),
      s.mean(), s.max(), s.mean() * c.router.cycle_ns(), completion.size());
}

std::string digest_hex(std::uint64_t digest) {
  return fmt::format("{:016x}", digest);
}

std::string op_name(const Config& c) {
  return config_name(c.workload.op);
}
std::string algorithm_name(const Config& c) {
  return config_name(c.workload.algorithm);
}

std::string torus_name(const Config& c) {
  const char* mode = c.sim.mode == SimMode::Lt ? "LT" : "AT";
  if (c.topology.kind == TopologyKind::FatTree) {
    return fmt::format("{}-ary {}-tree ({} nodes) {}", c.topology.k, c.topology.levels,
                       c.topology.node_count(), mode);
  }
  if (c.topology.kind == TopologyKind::Cayley && c.topology.group == CayleyGroup::Circulant) {
    return fmt::format("circulant C_{}({}) {}", c.topology.order,
                       fmt::join(c.topology.generators, ","), mode);
  }
  if (c.topology.kind == TopologyKind::Cayley) {
    return fmt::format("{} graph of {} symbols ({} nodes) {}", config_name(c.topology.group),
                       c.topology.symbols(), c.topology.order, mode);
  }
  return fmt::format("{} torus {}", fmt::join(c.topology.dims, "x"), mode);
}

std::string with_wall_time(const RunRecord& r, std::string_view what, std::string_view joiner) {
  if (r.split.work.empty()) return fmt::format("{}{}{:.2f} s", what, joiner, r.wall_seconds);
  const RankWork& root = r.split.work.front();
  return fmt::format(
      "{}{}{:.2f} s on {} ranks (grid {}; rank 0: {:.2f} s in the kernel, {:.2f} s "
      "in {} exchanges)",
      what, joiner, r.wall_seconds, r.split.ranks, r.split.grid, root.kernel_seconds,
      root.exchange_seconds, root.windows);
}

void check_replaces_results(const std::string& key, const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, error))) return;
  if (std::filesystem::file_size(path, error) == 0) return;  // made for it (mkstemp)
  const auto results = nlohmann::json::parse(read_regular_file(path, key), nullptr, false);
  if (results.is_object() && results.contains("angara_tlm")) return;
  throw ConfigError(key, path.string(),
                    "it exists and is not a results file of angara-tlm: a run replaces only "
                    "earlier results; remove it or give another name");
}

void write_run_output(const RunOutput& output, const std::filesystem::path& json,
                      std::ostream& say) {
  const std::string json_text = output.json.dump(2) + "\n";
  std::vector<OutputText> files;
  for (const SideFile& side : output.side_files) {
    files.push_back({fmt::format("--out (its {} file, {})", side.extension, side.label),
                     std::filesystem::path(json).replace_extension(side.extension), &side.text});
  }
  files.push_back({"--out", json, &json_text});
  write_files(files);
  for (std::size_t i = 0; i < output.side_files.size(); ++i) {
    say << output.side_files[i].label << ": " << files[i].path.string() << '\n';
  }
  say << output.summary << " -> " << json.string() << '\n';
}

}  // namespace angara
