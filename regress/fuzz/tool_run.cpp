#include "regress/fuzz/tool_run.h"

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

constexpr std::size_t kTailChars = 1500;  // of a tool's output kept

std::string read_tail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  return all.size() > kTailChars ? "..." + all.substr(all.size() - kTailChars) : all;
}

}  // namespace

ToolRun run_tool(std::vector<std::string> words, const std::string& work_dir,
                 double timeout_seconds, const std::string& log_name,
                 std::vector<std::string>* env) {
  const std::string log = work_dir + "/" + log_name;
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
  std::vector<char*> envp;
  if (env) {
    for (auto& entry : *env) envp.push_back(entry.data());
    envp.push_back(nullptr);
  }
  const int spawned = posix_spawn(&pid, words[0].c_str(), &actions, nullptr, argv.data(),
                                  env ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  ToolRun run;
  if (spawned != 0) return run;
  run.started = true;

  // Polled rather than waited on with a timer, so no signal handler is involved.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.timed_out = true;
      run.tail = read_tail(log);
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  run.tail = read_tail(log);
  if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
  } else {
    run.status = WEXITSTATUS(status);
  }
  return run;
}

std::string abnormal_end(const ToolRun& run, double timeout_seconds) {
  if (!run.started) return "cannot start the tool";
  if (run.timed_out)
    return fmt::format("no end within {} s (a hang)\n{}", timeout_seconds, run.tail);
  if (run.signal != 0) return fmt::format("killed by signal {}\n{}", run.signal, run.tail);
  return "";
}

}  // namespace angara::fuzz
