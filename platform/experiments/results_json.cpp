#include "platform/experiments/results_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "models/core/config_error.h"
#include "models/core/latency_stats.h"
#include "platform/config/config_loader.h"
#include "platform/config/config_values.h"
#include "platform/version/version.h"

namespace angara {
namespace {

// The config file's spelling of an enum value.
template <typename E>
std::string config_name(E value) {
  return config_values::json_value(value).template get<std::string>();
}

// One file to write: the flag or key that named it (for errors), where, and what.
struct OutputFile {
  std::string key;
  std::filesystem::path path;
  const std::string* text;
};

// Writes each text to its path + ".partial", then renames them all: every file is there whole, or
// (when one cannot be written) none is touched and the temporaries are gone. Every target is
// checked first (check_output_paths), so a device or a directory is never renamed over.
void write_files(const std::vector<OutputFile>& files) {
  std::vector<std::pair<std::string, std::filesystem::path>> targets;
  targets.reserve(files.size());
  for (const auto& f : files) targets.emplace_back(f.key, f.path);
  check_output_paths(targets);
  std::vector<std::filesystem::path> partial;
  try {
    for (const auto& [key, path, text] : files) {
      if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
      const std::filesystem::path tmp = path.string() + ".partial";
      std::ofstream out(tmp);
      if (out.is_open()) partial.push_back(tmp);  // ours to remove if anything fails
      out << *text;
      out.close();
      if (!out) throw std::runtime_error("cannot write " + tmp.string() + " (for " + key + ")");
    }
  } catch (...) {
    std::error_code ignored;
    for (const auto& tmp : partial) std::filesystem::remove(tmp, ignored);
    throw;
  }
  for (std::size_t i = 0; i < files.size(); ++i) std::filesystem::rename(partial[i], files[i].path);
}

LatencyStats completion_stats(const std::vector<Cycle>& completion) {
  LatencyStats s;
  for (Cycle c : completion) s.add(c);
  return s;
}

}  // namespace

void add_run(nlohmann::ordered_json& j, const RunRecord& r) {
  j["sim_cycles"] = r.sim_cycles;
  j["sim_ns"] = static_cast<double>(r.sim_cycles) * r.config.router.cycle_ns();
  j["wall_seconds"] = r.wall_seconds;
  j["config"] = config_to_json(r.config);
  j["angara_tlm"] = {{"version", version()},
                     {"git_revision", git_revision()},
                     {"results_schema", kResultsSchemaVersion}};
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
  if (!c.topology.torus()) {
    return fmt::format("{}-ary {}-tree ({} nodes) {}", c.topology.k, c.topology.levels,
                       c.topology.node_count(), mode);
  }
  return fmt::format("{} torus {}", fmt::join(c.topology.dims, "x"), mode);
}

std::string with_wall_time(const RunRecord& r, std::string_view what, std::string_view joiner) {
  return fmt::format("{}{}{:.2f} s", what, joiner, r.wall_seconds);
}

void check_output_path(const std::string& key, const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const auto value = fmt::format("\"{}\"", path.string());
  if (path.empty()) throw ConfigError(key, value, "name the file to write");
  if (!path.has_filename()) {
    throw ConfigError(key, value,
                      "names a directory: name a file to write (results go to a "
                      "temporary file beside it, then take its name)");
  }
  std::error_code error;
  const auto status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw ConfigError(key, value,
                      fmt::format("is {}, not a regular file: results are written to a temporary "
                                  "file beside the target and renamed over it, which would "
                                  "replace it; name a regular file or a new one",
                                  fs::is_directory(status) ? "a directory"
                                                           : "a device or other "
                                                             "special file"));
  }
  // The nearest existing ancestor must be a directory, so that the missing ones can be made.
  for (fs::path up = fs::absolute(path).parent_path(); !up.empty(); up = up.parent_path()) {
    const auto s = fs::status(up, error);
    if (fs::exists(s)) {
      if (!fs::is_directory(s)) {
        throw ConfigError(
            key, value,
            fmt::format("{} is not a directory, so the file cannot go under it", up.string()));
      }
      break;
    }
    if (up == up.root_path()) break;
  }
}

void check_output_paths(const std::vector<std::pair<std::string, std::filesystem::path>>& outputs) {
  namespace fs = std::filesystem;
  std::vector<fs::path> resolved;
  for (const auto& [key, path] : outputs) {
    check_output_path(key, path);
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(fs::absolute(path), error);
    if (error) canonical = fs::absolute(path).lexically_normal();
    for (std::size_t i = 0; i < resolved.size(); ++i) {
      if (resolved[i] == canonical) {
        throw ConfigError(key, fmt::format("\"{}\"", path.string()),
                          fmt::format("is the same file as {} (\"{}\"): one would overwrite the "
                                      "other; give them different names",
                                      outputs[i].first, outputs[i].second.string()));
      }
    }
    resolved.push_back(canonical);
  }
}

void write_file(const std::string& text, const std::filesystem::path& path,
                const std::string& key) {
  write_files({{key, path, &text}});
}

void write_run_output(const RunOutput& output, const std::filesystem::path& json,
                      std::ostream& say) {
  const std::string json_text = output.json.dump(2) + "\n";
  std::vector<OutputFile> files;
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
