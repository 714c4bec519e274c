#pragma once
// The experiment kinds angara-sim runs, by `workload.kind`: each kind's entry names it and runs
// it to a RunOutput. A new kind is one file (its result, runner, JSON and summary) and one line in
// registry.cpp.

#include <string>
#include <string_view>
#include <vector>

#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/machine/progress.h"

namespace angara {

// One experiment kind: how the config spells it and how it runs (in this process, once per
// process: it elaborates SystemC).
struct ExperimentEntry {
  WorkloadKind kind;
  std::string_view name;  // workload.kind's spelling in the config
  RunOutput (*run)(const Config& config, const ProgressSink& progress);
};

// A set of entries, at most one per kind.
class ExperimentRegistry {
 public:
  // Throws std::logic_error if two entries share a kind.
  explicit ExperimentRegistry(std::vector<ExperimentEntry> entries);

  // The entry of `kind`; a kind without one is a ConfigError naming workload.kind, the value and
  // the kinds there are entries for.
  const ExperimentEntry& find(WorkloadKind kind) const;
  const std::vector<ExperimentEntry>& entries() const { return m_entries; }

 private:
  std::vector<ExperimentEntry> m_entries;
};

// Every kind this build runs.
const ExperimentRegistry& experiments();

// The extensions of the side files a run of `config` writes beside its results JSON (a CSV per
// size, statistics tables, each partition's), for the checks of every output before the run.
std::vector<std::string> side_file_extensions(const Config& config);

// An entry's run for a runner whose result has to_json and summary_line overloads and writes no
// side files.
template <auto Run>
RunOutput output_of(const Config& config, const ProgressSink& progress) {
  const auto result = Run(config, progress);
  return {to_json(result), summary_line(result), {}};
}

}  // namespace angara
