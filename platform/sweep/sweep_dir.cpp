#include "platform/sweep/sweep_dir.h"

#include <fmt/format.h>

#include <charconv>

#include "models/core/config_error.h"
#include "platform/config/config_loader.h"
#include "platform/sweep/sweep_files.h"

namespace angara {

namespace fs = std::filesystem;

FileLock SweepDir::lock() const {
  const fs::path path = m_root / "runner.lock";
  auto lock = FileLock::try_take(path);
  if (!lock) {
    throw ConfigError(ConfigError::Subject::Directory, m_root.string(), "",
                      fmt::format("in use by another angara-sweep (pid {}): two runners on one "
                                  "sweep directory would run its points twice; wait for it to "
                                  "end, or stop it",
                                  FileLock::holder(path)));
  }
  lock->write_pid();
  return std::move(*lock);
}

void SweepDir::prepare(const SweepPlan& plan) const {
  // A directory holding another sweep file's points is not taken over: preparing would throw
  // away every result whose config differs. A file since moved (its old path gone) may.
  // (Read leniently: a damaged manifest is what prepare writes again.)
  const auto before = nlohmann::json::parse(read_text(m_root / "manifest.json"), nullptr, false);
  if (before.is_object() && before.contains("sweep") && before["sweep"].is_string()) {
    const fs::path old = before["sweep"].get<std::string>();
    if (!old.empty() && fs::exists(old) &&
        fs::weakly_canonical(old) != fs::weakly_canonical(fs::absolute(plan.file))) {
      throw ConfigError(ConfigError::Subject::Directory, m_root.string(), "",
                        fmt::format("holds the sweep of {}, not of {}: give this sweep another "
                                    "--out",
                                    old.string(), fs::absolute(plan.file).string()));
    }
  }
  nlohmann::ordered_json manifest;
  manifest["sweep"] = fs::absolute(plan.file).string();
  if (plan.ranks > 1) manifest["ranks"] = plan.ranks;
  manifest["axes"] = nlohmann::ordered_json::array();
  for (const auto& axis : plan.axes) manifest["axes"].push_back(axis.key);
  manifest["points"] = nlohmann::ordered_json::array();
  for (const auto& p : plan.points) {
    const fs::path dir = point(p.name);
    fs::create_directories(dir);
    // Each point's waveform in its own directory, not every point's in one file.
    Config resolved = p.config;
    if (resolved.trace.on()) {
      resolved.trace.file = fs::absolute(dir / fs::path(resolved.trace.file).filename()).string();
    }
    const std::string config = config_to_toml(resolved);
    if (!fs::exists(dir / "config.toml") || read_text(dir / "config.toml") != config) {
      fs::remove(dir / "results.json");  // stale: made from another config
      fs::remove(dir / "failed");
      fs::remove(dir / "peak_memory");
      write_text(dir / "config.toml", config);
    }
    nlohmann::ordered_json settings;
    for (const auto& [key, value] : p.settings) settings[key] = value;
    manifest["points"].push_back({{"name", p.name}, {"settings", settings}});
    if (p.after >= 0) manifest["points"].back()["after"] = plan.points[p.after].name;
  }
  write_text(m_root / "manifest.json", manifest.dump(2) + "\n");
}

namespace {

// Every point of a manifest is an object with a plain directory name and a string value for each
// axis key: a damaged or hand-edited manifest is refused here, naming what is wrong, rather than
// crashing collect or running a point outside DIR/points.
void check_manifest(const nlohmann::ordered_json& m, const fs::path& path) {
  const auto damaged = [&](const std::string& where, const std::string& rule) {
    return ConfigError(ConfigError::Subject::File, path.string(), where,
                       rule +
                           "; the manifest is damaged (angara-sweep run or slurm writes it "
                           "again from the sweep file)");
  };
  if (!m.is_object() || !m.contains("axes") || !m["axes"].is_array() || !m.contains("points") ||
      !m["points"].is_array()) {
    throw damaged("", "expected an object with \"axes\" and \"points\" arrays");
  }
  for (const auto& axis : m["axes"]) {
    if (!axis.is_string()) throw damaged("axes", "every axis key is a string");
  }
  for (std::size_t i = 0; i < m["points"].size(); ++i) {
    const auto& p = m["points"][i];
    const auto where = fmt::format("point {}", i);
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string() ||
        !plain_name(p["name"].get<std::string>())) {
      throw damaged(where, "every point has a name that is a plain directory name");
    }
    const std::string name = p["name"];
    if (!p.contains("settings") || !p["settings"].is_object()) {
      throw damaged(where + " '" + name + "'", "every point has its axis settings");
    }
    for (const auto& axis : m["axes"]) {
      const std::string key = axis;
      if (!p["settings"].contains(key) || !p["settings"][key].is_string()) {
        throw damaged(
            where + " '" + name + "'",
            fmt::format("no value for axis key '{}': every point has one for each axis", key));
      }
    }
    if (p.contains("after") && !(p["after"].is_string() && plain_name(p["after"]))) {
      throw damaged(where + " '" + name + "'", "\"after\" names the point before it");
    }
  }
  if (m.contains("ranks") && !(m["ranks"].is_number_integer() && m["ranks"].get<int>() >= 1 &&
                               m["ranks"].get<int>() <= kMaxSweepRanks)) {
    throw damaged("ranks", fmt::format("the MPI ranks per point, 1 to {}", kMaxSweepRanks));
  }
}

}  // namespace

nlohmann::ordered_json SweepDir::manifest() const {
  const fs::path path = m_root / "manifest.json";
  if (!fs::exists(path)) {
    throw ConfigError(ConfigError::Subject::Directory, m_root.string(), "",
                      "no manifest.json: not a sweep directory (make it with angara-sweep run or "
                      "slurm)");
  }
  auto m = nlohmann::ordered_json::parse(read_text(path), nullptr, false);
  check_manifest(m, path);
  return m;
}

std::vector<std::string> SweepDir::point_names() const {
  const auto m = manifest();  // a named copy: the loop must not outlive it
  std::vector<std::string> names;
  for (const auto& p : m["points"]) names.push_back(p["name"]);
  return names;
}

std::optional<nlohmann::ordered_json> SweepDir::results(const std::string& name) const {
  const fs::path path = point(name) / "results.json";
  if (!fs::is_regular_file(path)) return std::nullopt;
  auto results = nlohmann::ordered_json::parse(read_text(path), nullptr, false);
  if (!results.is_object()) return std::nullopt;  // cut short, or not JSON at all
  return results;
}

bool SweepDir::done(const std::string& name) const {
  return results(name).has_value();
}

std::optional<long> SweepDir::peak_memory_kib(const std::string& name) const {
  const fs::path path = point(name) / "peak_memory";
  if (!fs::is_regular_file(path)) return std::nullopt;
  const std::string text = read_text(path);
  long kib = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), kib);
  if (error != std::errc() || end == text.data() || kib < 0) return std::nullopt;
  return kib;
}

std::vector<PointDir> sweep_points(const SweepDir& dir) {
  std::vector<PointDir> points;
  const auto m = dir.manifest();
  const int ranks = m.value("ranks", 1);
  for (const auto& p : m["points"]) {
    points.push_back({&dir, p["name"], p.value("after", ""), ranks});
  }
  return points;
}

}  // namespace angara
