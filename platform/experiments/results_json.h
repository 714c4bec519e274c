#pragma once
// Results of a run as JSON (the schema every mode writes) and as a one-line summary.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "platform/experiments/app_experiment.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/software_experiment.h"

namespace angara {

nlohmann::ordered_json to_json(const ExperimentResult& result);
std::string summary_line(const ExperimentResult& result);
nlohmann::ordered_json to_json(const CollectiveResult& result);
std::string summary_line(const CollectiveResult& result);
nlohmann::ordered_json to_json(const SoftwareResult& result);
std::string summary_line(const SoftwareResult& result);
nlohmann::ordered_json to_json(const AppResult& result);
std::string summary_line(const AppResult& result);
// The tail every results file shares: how long the run was, and the config it ran.
void add_run(nlohmann::ordered_json& j, Cycle sim_cycles, double wall_seconds, const Config& c);
// Writes to a temporary file and renames it, so a crash never leaves half a result behind.
void write_file(const std::string& text, const std::filesystem::path& path);
inline void write_json_file(const nlohmann::ordered_json& json, const std::filesystem::path& path) {
  write_file(json.dump(2) + "\n", path);
}

}  // namespace angara
