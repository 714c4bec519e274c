#include "platform/experiments/partition_run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "models/core/config_error.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "platform/experiments/child_run.h"
#include "platform/experiments/registry.h"

namespace angara {
namespace {

using Json = nlohmann::ordered_json;

// Partition `index`'s standalone run, in a child process of its own (child_run.h); its progress
// lines say which partition they are from, and its errors name it.
RunOutput run_partition(const Config& config, std::size_t index, const ProgressSink& progress) {
  const auto& p = config.partitions[index];
  Json reply;
  try {
    reply = run_in_child([&] {
      const ProgressSink prefixed = [&](const std::string& line) {
        if (progress) progress(fmt::format("partition {}: {}", index, line));
      };
      const Config own = config.partition_config(index);
      const RunOutput out = experiments().find(own.workload.kind).run(own, prefixed);
      Json side = Json::array();
      for (const auto& f : out.side_files) {
        side.push_back({{"extension", f.extension}, {"label", f.label}, {"text", f.text}});
      }
      return Json{{"json", out.json}, {"summary", out.summary}, {"side_files", side}};
    });
  } catch (const ChildError& e) {
    if (e.type() == "ConfigError") {
      throw ConfigError(fmt::format("partition[{}]", index), p.box(), e.what());
    }
    model_error(report_id::kPartition,
                fmt::format("partition {} ({}): {}", index, p.box(), e.what()));
  }
  RunOutput output{reply.at("json"), reply.at("summary").get<std::string>(), {}};
  for (const auto& f : reply.at("side_files")) {
    output.side_files.push_back({f.at("extension").get<std::string>(),
                                 f.at("label").get<std::string>(),
                                 f.at("text").get<std::string>()});
  }
  return output;
}

}  // namespace

RunOutput run_partitions(const Config& config, const ProgressSink& progress) {
  config.validate();
  const auto start = std::chrono::steady_clock::now();
  RunOutput out;
  Json partitions = Json::array();
  std::vector<std::string> summaries;
  Cycle sim_cycles = 0;
  for (std::size_t i = 0; i < config.partitions.size(); ++i) {
    const auto& p = config.partitions[i];
    RunOutput one = run_partition(config, i, progress);
    sim_cycles = std::max(sim_cycles, one.json.value("sim_cycles", Cycle{0}));
    partitions.push_back({{"partition", i},
                          {"origin", p.origin},
                          {"dims", p.dims},
                          {"seed", p.seed},
                          {"nodes", p.node_count()},
                          {"results", std::move(one.json)}});
    summaries.push_back(fmt::format("[{}] {}", i, one.summary));
    for (auto& side : one.side_files) {
      side.extension = partition_side_extension(i, side.extension);
      side.label = fmt::format("partition {} {}", i, side.label);
      out.side_files.push_back(std::move(side));
    }
  }
  RunRecord record{config, config.topology.node_count(), sim_cycles, 0.0, 0, {}, {}};
  record.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.json["partitions"] = std::move(partitions);
  out.json["idle_nodes"] = config.idle_nodes();
  out.json["nodes"] = record.nodes;
  add_run(out.json, record);
  out.summary = with_wall_time(
      record,
      fmt::format("{} in {} partitions ({} idle nodes): {}", torus_name(config),
                  config.partitions.size(), config.idle_nodes(), fmt::join(summaries, "; ")),
      "; ");
  return out;
}

std::string partition_side_extension(std::size_t index, const std::string& extension) {
  return fmt::format(".partition{}{}", index, extension);
}

}  // namespace angara
