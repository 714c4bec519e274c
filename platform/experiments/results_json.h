#pragma once
// Results of a run as files: the pieces of the JSON schema and of the one-line summary that every
// experiment kind shares, what a run hands back (RunOutput), and writing it whole or not at all
// (through the one writer, platform/files/output_file.h, whose checks it offers its users).
// Each kind's own fields are in its file (experiment.h, collective_experiment.h, ...).

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/config/config.h"
#include "platform/experiments/run_record.h"
#include "platform/files/output_file.h"

namespace angara {

// A file written beside the results JSON, named like it with another extension.
struct SideFile {
  std::string extension;  // replaces the JSON's, e.g. ".csv"
  std::string label;      // what the command line says it holds, e.g. "per size"
  std::string text;
};

// What one run hands back to be written: its results file, its summary, any side files.
struct RunOutput {
  nlohmann::ordered_json json;       // the results file
  std::string summary;               // the one-line summary (write_run_output adds " -> FILE")
  std::vector<SideFile> side_files;  // e.g. msgrate's and pingpong's CSV per size
};

// The version of the results files' layout: raised when a field is renamed, removed or changes
// meaning (new fields do not raise it).
inline constexpr int kResultsSchemaVersion = 1;

// The tail every results file shares: how long the run was, the config it ran, and which
// angara-tlm ran it ("angara_tlm": version, git_revision, results_schema).
void add_run(nlohmann::ordered_json& j, const RunRecord& r);
// For a summary line: that some nodes' source queues were full and their sources waited, or "".
std::string capped_note(const RunRecord& r);
// Completion times of repeated operations: their count, min, mean, max in cycles and ns, and
// each one in cycles.
void add_completion(nlohmann::ordered_json& j, const std::vector<Cycle>& completion,
                    const Config& c);
// The same in a summary line: "completion min 10 mean 12.5 max 15 cycles (25.0 ns mean) over 4
// operations".
std::string completion_summary(const std::vector<Cycle>& completion, const Config& c);
// A 64-bit digest as 16 hex digits (a JSON number would lose bits in many readers).
std::string digest_hex(std::uint64_t digest);

// How the config spells the workload's operation and algorithm ("allreduce",
// "recursive_doubling"), as the results write them.
std::string op_name(const Config& c);
std::string algorithm_name(const Config& c);

// How the summary line of a run on a torus begins: "4x4x4 torus AT".
std::string torus_name(const Config& c);
// The summary line: what the kind reports, then the wall time, after `joiner` ("..., 1.23 s").
std::string with_wall_time(const RunRecord& r, std::string_view what,
                           std::string_view joiner = ", ");

// Writes the results JSON to `json` and each side file beside it, all whole or none of them
// (every file goes to a temporary first; only when all are written are they renamed), then says
// on `say` where the side files went and gives the summary line with " -> `json`".
// Results replace only results: throws a ConfigError naming `key` when `path` holds a regular
// file that is neither empty nor a results file of these tools (a config, a sweep file, ...).
void check_replaces_results(const std::string& key, const std::filesystem::path& path);

void write_run_output(const RunOutput& output, const std::filesystem::path& json,
                      std::ostream& say);

}  // namespace angara
