// The experiment registry: every workload kind the config knows has exactly one entry, spelled as
// the config spells it, and a kind without one is a ConfigError naming workload.kind, the value
// and the known kinds. Nothing here runs an experiment.

#include "platform/experiments/registry.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "platform/config/config_values.h"

namespace angara {
namespace {

RunOutput no_run(const Config&, const ProgressSink&) {
  return {};
}

// The message of the ConfigError `find(kind)` throws; fails the test if it throws none.
std::string find_error(const ExperimentRegistry& registry, WorkloadKind kind) {
  try {
    registry.find(kind);
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "workload.kind");
    return e.what();
  }
  ADD_FAILURE() << "find(" << static_cast<int>(kind) << ") threw nothing";
  return "";
}

TEST(ExperimentRegistry, EveryWorkloadKindHasExactlyOneEntryNamedAsInTheConfig) {
  const auto& kinds = config_values::names_of(WorkloadKind{}).names;
  for (const auto& [name, kind] : kinds) {
    int entries = 0;
    for (const ExperimentEntry& e : experiments().entries()) entries += e.kind == kind;
    EXPECT_EQ(entries, 1) << name;
    EXPECT_EQ(experiments().find(kind).name, name);
    EXPECT_NE(experiments().find(kind).run, nullptr) << name;
  }
  EXPECT_EQ(experiments().entries().size(), kinds.size());
}

TEST(ExperimentRegistry, AnUnknownKindNamesKeyValueAndEveryKnownKind) {
  const std::string what = find_error(experiments(), static_cast<WorkloadKind>(99));
  EXPECT_NE(what.find("'workload.kind' = 99"), std::string::npos) << what;
  EXPECT_NE(
      what.find("known kinds: synthetic, collective, msgrate, pingpong, software, spmv, heat"),
      std::string::npos)
      << what;
}

TEST(ExperimentRegistry, AKindWithoutAnEntryNamesKeyValueAndTheKnownKinds) {
  const ExperimentRegistry registry({{WorkloadKind::Synthetic, "synthetic", no_run},
                                     {WorkloadKind::Collective, "collective", no_run}});
  EXPECT_EQ(registry.find(WorkloadKind::Collective).name, "collective");
  const std::string what = find_error(registry, WorkloadKind::Heat);
  EXPECT_NE(what.find("'workload.kind' = \"heat\""), std::string::npos) << what;
  EXPECT_NE(what.find("known kinds: synthetic, collective"), std::string::npos) << what;
}

TEST(ExperimentRegistry, TwoEntriesForOneKindAreRefused) {
  EXPECT_THROW(ExperimentRegistry(
                   {{WorkloadKind::Heat, "heat", no_run}, {WorkloadKind::Heat, "heat", no_run}}),
               std::logic_error);
}

}  // namespace
}  // namespace angara
