#include "platform/sweep/sweep_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>

#include "models/core/config_error.h"
#include "models/core/duration_text.h"
#include "models/core/input_file.h"
#include "platform/config/config_loader.h"
#include "platform/sweep/child_program.h"
#include "platform/sweep/file_lock.h"
#include "platform/sweep/sweep_files.h"

namespace angara {

namespace fs = std::filesystem;

std::string log_tail(const std::string& text, int lines) {
  std::size_t pos = text.size();
  for (int i = 0; i <= lines && pos > 0; ++i) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return pos < text.size() ? text.substr(pos + 1) : std::string();
}

double share_done(const std::string& log) {
  const std::size_t end = log.rfind("%)");
  if (end == std::string::npos) return 0;
  std::size_t start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(log[start - 1]))) --start;
  if (start == end || start == 0 || log[start - 1] != '(') return 0;
  return std::min(1.0, std::stod(log.substr(start, end - start)) / 100.0);
}

namespace {

// The end of a point's log (its last 4 KiB), where its last progress line and a failure's last
// words are; "" for anything but a regular file, opened without waiting.
std::string log_end(const fs::path& path) {
  constexpr off_t kTail = 4096;
  std::string text;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // a FIFO never waits
  struct stat s {};
  if (fd >= 0 && fstat(fd, &s) == 0 && S_ISREG(s.st_mode)) {
    text.resize(kTail);
    const ssize_t n = pread(fd, text.data(), text.size(), std::max<off_t>(0, s.st_size - kTail));
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  if (fd >= 0) close(fd);
  return text;
}

// Starts `sim run config.toml --out results.json` in the point's directory; its progress lines
// go to its log, where the sweep's bar reads how far it has got. The simulation holds the point's
// lock until it ends, and gets SIGTERM when the runner dies (even by SIGKILL), so a resumed run
// never finds it still running beside its own.
pid_t start_point(const fs::path& sim, const fs::path& dir, const FileLock& lock) {
  const pid_t runner = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid > 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != runner) _exit(127);  // the runner died before the line above
  fcntl(lock.fd(), F_SETFD, 0);         // kept across exec
  // Never through a link planted at its name; a FIFO there fails the open instead of waiting.
  const int log = open((dir / "run.log").c_str(),
                       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (log >= 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    close(log);
  }
  // A large machine's state is spread over gigabytes touched at random: on 2 MB pages the
  // processor's page walks stop missing the cache (docs/PERFORMANCE.md). A setting of the
  // caller's own is kept.
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0);
  const std::string config = (dir / "config.toml").string(), out = (dir / "results.json").string();
  execl(sim.c_str(), sim.c_str(), "run", config.c_str(), "--out", out.c_str(),
        static_cast<char*>(nullptr));
  std::perror("exec angara-sim");
  _exit(127);
}

class Progress {
 public:
  explicit Progress(int total) : m_total(total), m_tty(isatty(STDERR_FILENO) != 0) {}

  enum class Outcome { Ok, Failed, Beyond, Elsewhere };

  void finished(const std::string& name, Outcome outcome, int running) {
    ++m_done;
    m_failed += outcome == Outcome::Failed ? 1 : 0;
    m_beyond += outcome == Outcome::Beyond ? 1 : 0;
    m_running = running;
    m_partial = 0;  // until the running points' logs are read again
    if (m_tty) {
      fmt::print(stderr, "\r{}{}", line(), m_done == m_total ? "\n" : "");
    } else {
      static constexpr const char* kWords[] = {"ok", "FAILED", "beyond saturation, not run",
                                               "done by another runner"};
      fmt::print(stderr, "{} {}: {}\n", line(), name, kWords[static_cast<int>(outcome)]);
    }
  }

  // The running points' shares done, summed: the bar and the ETA count them. Redrawn on a
  // terminal only (a log gets a line per finished point).
  void running(double partial, int running) {
    m_partial = partial;
    m_running = running;
    if (m_tty) fmt::print(stderr, "\r{}", line());
  }

 private:
  std::string line() const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - m_start).count();
    const double done = m_done + m_partial;
    const double left = m_total - done;
    const int width = 30;
    const int filled = m_total ? static_cast<int>(width * done / m_total) : width;
    return fmt::format("[{:=<{}}{:<{}}] {}/{} ok {} failed {}{} running {} elapsed {} ETA {}", "",
                       filled, "", width - filled, m_done, m_total, m_done - m_failed - m_beyond,
                       m_failed, m_beyond ? fmt::format(" beyond saturation {}", m_beyond) : "",
                       m_running, duration_text(elapsed),
                       done > 0 ? duration_text(elapsed / done * left) : "?");
  }

  using Clock = std::chrono::steady_clock;
  int m_total, m_done = 0, m_failed = 0, m_beyond = 0, m_running = 0;
  double m_partial = 0;
  bool m_tty;
  Clock::time_point m_start = Clock::now();
};

void run_pool(std::deque<PointDir>& todo, std::map<pid_t, PointDir>& running, int jobs,
              const fs::path& sim, RunReport& report, Progress& progress);

// SIGINT and SIGTERM while points run: noted, so that the runner stops its points before it
// goes (a terminal's Ctrl-C reaches them anyway, a `kill` of the runner alone would not).
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void note_stop_signal(int signal) {
  g_stop_signal = signal;
}

class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = note_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: waitpid returns at the signal
    for (int i = 0; i < 2; ++i) sigaction(kSignals[i], &action, &m_old[i]);
  }
  ~StopSignals() { restore(); }
  void restore() {
    for (int i = 0; i < 2; ++i) sigaction(kSignals[i], &m_old[i], nullptr);
  }

 private:
  static constexpr int kSignals[2] = {SIGINT, SIGTERM};
  struct sigaction m_old[2]{};
};

struct Stopped {
  int signal;
};

}  // namespace

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

std::vector<PointDir> sweep_points(const SweepDir& dir) {
  std::vector<PointDir> points;
  const auto m = dir.manifest();
  for (const auto& p : m["points"]) points.push_back({&dir, p["name"], p.value("after", "")});
  return points;
}

RunReport run_points(const std::vector<PointDir>& points, int jobs, const fs::path& sim) {
  RunReport report;
  report.total = static_cast<int>(points.size());
  std::deque<PointDir> todo;
  for (const auto& point : points) {
    if (point.done()) {
      ++report.skipped;
    } else {
      todo.push_back(point);
    }
  }
  if (report.skipped > 0) {
    fmt::print(stderr, "{} of {} points already done, {} to run\n", report.skipped, report.total,
               todo.size());
  }
  Progress progress(static_cast<int>(todo.size()));
  std::map<pid_t, PointDir> running;
  StopSignals signals;
  // Leave no point running without a runner to record it: stop and reap them, the next run
  // resumes them.
  const auto stop_running = [&] {
    for (const auto& [pid, point] : running) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
  };
  try {
    run_pool(todo, running, jobs, sim, report, progress);
  } catch (const Stopped& stopped) {
    stop_running();
    fmt::print(stderr, "\nstopped by signal {}: {} running points stopped, run again to resume\n",
               stopped.signal, running.size());
    signals.restore();
    raise(stopped.signal);  // the caller sees the signal, as if nothing had caught it
    throw std::runtime_error("stopped by a signal");
  } catch (...) {
    stop_running();
    throw;
  }
  return report;
}

namespace {

bool saturated(const PointDir& point) {
  const auto results = point.dir->results(point.name);
  return results && results->value("saturated", false);
}

// Whether a waiting point can start now: not while the point before it along the
// until_saturated axis is still to run; never if that point is saturated or was not run itself.
enum class Gate { Start, Wait, Beyond };

Gate gate(const PointDir& point, const std::set<fs::path>& unfinished) {
  if (point.after.empty()) return Gate::Start;
  const PointDir before{point.dir, point.after, ""};
  if (unfinished.count(before.path())) return Gate::Wait;
  if (fs::exists(before.path() / "beyond_saturation")) return Gate::Beyond;
  return before.done() && saturated(before) ? Gate::Beyond : Gate::Start;
}

void run_pool(std::deque<PointDir>& todo, std::map<pid_t, PointDir>& running, int jobs,
              const fs::path& sim, RunReport& report, Progress& progress) {
  std::set<fs::path> unfinished;
  for (const auto& point : todo) {
    fs::remove(point.path() / "beyond_saturation");  // decided again from this run's results
    unfinished.insert(point.path());
  }
  const auto label = [](const PointDir& point) {
    return point.dir->root().filename().string() + "/" + point.name;
  };
  auto next_look = std::chrono::steady_clock::now();
  while (!todo.empty() || !running.empty()) {
    if (g_stop_signal != 0) throw Stopped{g_stop_signal};
    // Points start in the order given, each once the point before it on its line is done.
    const std::size_t waiting = todo.size();
    int busy = 0;  // points another process holds
    for (auto it = todo.begin();
         it != todo.end() && static_cast<int>(running.size()) < std::max(jobs, 1);) {
      const Gate g = gate(*it, unfinished);
      if (g == Gate::Wait) {
        ++it;
        continue;
      }
      const int now = static_cast<int>(running.size());
      if (g == Gate::Beyond) {
        write_text(it->path() / "beyond_saturation", "after " + it->after + "\n");
        ++report.beyond;
        unfinished.erase(it->path());
        progress.finished(label(*it), Progress::Outcome::Beyond, now);
        it = todo.erase(it);  // the next point on its line comes later in plan order
        continue;
      }
      // Another process (a runner killed a moment ago, a Slurm task) may be running it: wait.
      auto lock = FileLock::try_take(it->path() / "running.lock");
      if (!lock) {
        ++busy;
        ++it;
        continue;
      }
      if (it->done()) {  // that process finished it
        ++report.skipped;
        unfinished.erase(it->path());
        progress.finished(label(*it), Progress::Outcome::Elsewhere, now);
      } else {
        fs::remove(it->path() / "failed");
        running.emplace(start_point(sim, it->path(), *lock), *it);
      }
      it = todo.erase(it);
    }
    if (running.empty()) {
      // Points were marked beyond saturation: scan again. Lines run in plan order, so the first
      // waiting point of every line can always be decided, unless another process holds it.
      if (todo.size() == waiting && busy == 0) {
        throw std::logic_error("sweep points wait on one another");
      }
      if (todo.size() == waiting) usleep(50000);
      continue;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno == EINTR) continue;  // a stop signal is seen at the loop's top
    if (pid < 0) throw std::runtime_error("waitpid failed");
    if (pid == 0) {  // none has ended: now and then, look at how far they have got
      if (std::chrono::steady_clock::now() >= next_look) {
        double partial = 0;
        for (const auto& [child, point] : running) {
          partial += share_done(log_end(point.path() / "run.log"));
        }
        progress.running(partial, static_cast<int>(running.size()));
        next_look = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      }
      usleep(10000);  // a point's end is seen within 10 ms
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const PointDir point = it->second;
    running.erase(it);
    unfinished.erase(point.path());
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && point.done();
    ++report.ran;
    if (!ok) {
      report.failed.push_back(point);
      std::string why = exit_text(status);
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) why += " but no results.json";
      const std::string log = log_tail(log_end(point.path() / "run.log"), 10);
      // A failure is recorded whatever its log holds (nothing, when the point died at once),
      // and the sweep goes on with the other points.
      try {
        write_text(point.path() / "failed", why + "\n" + (log.empty() ? "(no output)\n" : log));
      } catch (const std::exception& e) {
        fmt::print(stderr, "cannot record the failure of {}: {}\n", point.name, e.what());
      }
    }
    progress.finished(label(point), ok ? Progress::Outcome::Ok : Progress::Outcome::Failed,
                      static_cast<int>(running.size()));
  }
}

}  // namespace

fs::path sibling_executable(const std::string& name) {
  return fs::read_symlink("/proc/self/exe").parent_path() / name;
}

}  // namespace angara
