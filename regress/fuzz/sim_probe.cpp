#include "regress/fuzz/sim_probe.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace angara::fuzz {
namespace {

constexpr std::size_t kTailChars = 1500;  // of angara-sim's output in a failure's detail

std::string read_tail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  return all.size() > kTailChars ? "..." + all.substr(all.size() - kTailChars) : all;
}

}  // namespace

RunOutcome probe_run(const std::string& sim, const std::string& config,
                     const std::vector<std::string>& args, const std::string& work_dir,
                     double timeout_seconds) {
  const std::string log = work_dir + "/sim.log";
  std::vector<std::string> words{sim, "run", config, "--quiet", "--out", "results.json"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, work_dir.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, sim.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {RunVerdict::Failed, fmt::format("cannot start {}", sim)};

  // Polled rather than waited on with a timer, so no signal handler is involved.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return {RunVerdict::Failed,
              fmt::format("no end within {} s (a hang)\n{}", timeout_seconds, read_tail(log))};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::string tail = read_tail(log);
  if (WIFSIGNALED(status)) {
    return {RunVerdict::Failed, fmt::format("killed by signal {}\n{}", WTERMSIG(status), tail)};
  }
  const int code = WEXITSTATUS(status);
  if (code == 0) return {RunVerdict::Ok, ""};
  // A bad config names its key, or the mutant file when it is not TOML at all.
  if (code == 2 && (tail.find("bad config: config key '") != std::string::npos ||
                    tail.find("bad config: file '") != std::string::npos)) {
    return {RunVerdict::BadConfig, ""};
  }
  if (code == 3 && tail.find("model failure: ") != std::string::npos) {
    return {RunVerdict::ModelFailure, ""};
  }
  return {RunVerdict::Failed,
          fmt::format("exit status {} (documented: 0, 2 naming a key, 3 a model failure)\n{}", code,
                      tail)};
}

}  // namespace angara::fuzz
