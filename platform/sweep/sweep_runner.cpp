#include "platform/sweep/sweep_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

#include "models/core/duration_text.h"
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

// Starts `sim run config.toml --out results.json` in the point's directory (over several ranks:
// under mpirun or srun); its progress lines go to its log, where the sweep's bar reads how far it
// has got. The simulation holds the point's lock until it ends, and gets SIGTERM when the runner
// dies (even by SIGKILL), so a resumed run never finds it still running beside its own.
pid_t start_point(const fs::path& sim, const PointDir& point, RankLauncher launcher,
                  const FileLock& lock) {
  const fs::path dir = point.path();
  std::vector<std::string> argv;
  if (point.ranks > 1 && launcher == RankLauncher::Mpirun) {
    argv = {"mpirun", "-np", std::to_string(point.ranks)};
  } else if (point.ranks > 1) {
    argv = {"srun", "--mpi=pmix", "--ntasks", std::to_string(point.ranks)};
  }
  argv.insert(argv.end(), {sim.string(), "run", (dir / "config.toml").string(), "--out",
                           (dir / "results.json").string()});
  std::vector<char*> args;
  for (auto& word : argv) args.push_back(word.data());
  args.push_back(nullptr);
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
  execvp(args[0], args.data());
  std::perror(("exec " + argv[0]).c_str());
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
              const fs::path& sim, RankLauncher launcher, RunReport& report, Progress& progress);

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

RunReport run_points(const std::vector<PointDir>& points, int jobs, const fs::path& sim,
                     RankLauncher launcher) {
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
    run_pool(todo, running, jobs, sim, launcher, report, progress);
  } catch (const Stopped& stopped) {
    stop_running();
    fmt::print(stderr, "\nstopped by signal {}: {} running points stopped, run again to resume\n",
               stopped.signal, running.size());
    // The caller sees the signal, as if nothing had caught it, whatever disposition the runner
    // inherited (a job started in the background by a script starts with SIGINT ignored).
    signals.restore();
    std::signal(stopped.signal, SIG_DFL);
    raise(stopped.signal);
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

// The cores a point takes: one per rank, all of them for one over more ranks than there are.
int cores(const PointDir& point, int jobs) {
  return std::clamp(point.ranks, 1, std::max(jobs, 1));
}

void run_pool(std::deque<PointDir>& todo, std::map<pid_t, PointDir>& running, int jobs,
              const fs::path& sim, RankLauncher launcher, RunReport& report, Progress& progress) {
  std::set<fs::path> unfinished;
  for (const auto& point : todo) {
    fs::remove(point.path() / "beyond_saturation");  // decided again from this run's results
    fs::remove(point.path() / "results.json");       // not done: cut short, or not JSON
    fs::remove(point.path() / "peak_memory");        // an earlier run's, not this one's
    unfinished.insert(point.path());
  }
  const auto label = [](const PointDir& point) {
    return point.dir->root().filename().string() + "/" + point.name;
  };
  auto next_look = std::chrono::steady_clock::now();
  while (!todo.empty() || !running.empty()) {
    if (g_stop_signal != 0) throw Stopped{g_stop_signal};
    // Points start in the order given, each once the point before it on its line is done and
    // there are cores for it.
    const std::size_t waiting = todo.size();
    int busy = 0;  // points another process holds
    int cores_taken = 0;
    for (const auto& [pid, point] : running) cores_taken += cores(point, jobs);
    for (auto it = todo.begin(); it != todo.end();) {
      if (cores_taken + cores(*it, jobs) > std::max(jobs, 1)) break;
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
        running.emplace(start_point(sim, *it, launcher, *lock), *it);
        cores_taken += cores(*it, jobs);
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
    rusage usage{};
    const pid_t pid = wait4(-1, &status, WNOHANG, &usage);
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
    // Its largest process's (a rank's, under mpirun); srun's would be srun's own.
    if (ok && !(point.ranks > 1 && launcher == RankLauncher::Srun)) {
      write_text(point.path() / "peak_memory", fmt::format("{}\n", usage.ru_maxrss));  // KiB
    }
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
