#include "platform/experiments/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/core/config_error.h"
#include "platform/config/config_values.h"
#include "platform/experiments/app_experiment.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/network_stats.h"
#include "platform/experiments/node_experiment.h"
#include "platform/experiments/partition_run.h"
#include "platform/experiments/software_experiment.h"
#include "platform/experiments/timeline_table.h"

namespace angara {
namespace {

// The kind as the config writes it ("heat"), or its number if the config has no name for it.
std::string kind_value(WorkloadKind kind) {
  for (const auto& [name, each] : config_values::names_of(WorkloadKind{}).names) {
    if (each == kind) return fmt::format("\"{}\"", name);
  }
  return std::to_string(static_cast<int>(kind));
}

}  // namespace

ExperimentRegistry::ExperimentRegistry(std::vector<ExperimentEntry> entries)
    : m_entries(std::move(entries)) {
  for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
    if (std::any_of(m_entries.begin(), it, [&](const auto& e) { return e.kind == it->kind; })) {
      throw std::logic_error(
          fmt::format("two experiment entries for workload.kind {}", kind_value(it->kind)));
    }
  }
}

const ExperimentEntry& ExperimentRegistry::find(WorkloadKind kind) const {
  const auto it = std::find_if(m_entries.begin(), m_entries.end(),
                               [kind](const auto& e) { return e.kind == kind; });
  if (it != m_entries.end()) return *it;
  std::vector<std::string_view> known;
  for (const auto& e : m_entries) known.push_back(e.name);
  throw ConfigError(
      "workload.kind", kind_value(kind),
      fmt::format("no experiment runs this kind; known kinds: {}", fmt::join(known, ", ")));
}

const ExperimentRegistry& experiments() {
  static const ExperimentRegistry registry({
      {WorkloadKind::Synthetic, "synthetic", synthetic_output},
      {WorkloadKind::Collective, "collective", output_of<run_collective_experiment>},
      {WorkloadKind::MsgRate, "msgrate", message_benchmark_output},
      {WorkloadKind::PingPong, "pingpong", message_benchmark_output},
      {WorkloadKind::Software, "software", output_of<run_software_experiment>},
      {WorkloadKind::Spmv, "spmv", output_of<run_app_experiment>},
      {WorkloadKind::Heat, "heat", output_of<run_app_experiment>},
  });
  return registry;
}

std::vector<std::string> side_file_extensions(const Config& config) {
  std::vector<std::string> extensions;
  for (std::size_t i = 0; i < config.partitions.size(); ++i) {
    for (const auto& own : side_file_extensions(config.partition_config(i))) {
      extensions.push_back(partition_side_extension(i, own));
    }
  }
  if (!config.partitions.empty()) return extensions;
  if (config.workload.kind == WorkloadKind::MsgRate ||
      config.workload.kind == WorkloadKind::PingPong) {
    extensions.push_back(kPerSizeExtension);
  }
  for (const auto& extension : network_stats_extensions(config)) extensions.push_back(extension);
  if (config.stats.interval_cycles > 0) extensions.push_back(kIntervalsExtension);
  return extensions;
}

}  // namespace angara
