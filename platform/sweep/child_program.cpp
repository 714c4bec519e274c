#include "platform/sweep/child_program.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace angara {

bool ProgramResult::ok() const {
  return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

std::string exit_text(int wait_status) {
  return WIFEXITED(wait_status) ? fmt::format("exit status {}", WEXITSTATUS(wait_status))
                                : fmt::format("killed by signal {}", WTERMSIG(wait_status));
}

ProgramResult run_program(const std::vector<std::string>& argv, bool capture) {
  std::vector<char*> args;
  for (const auto& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  int pipe_fds[2] = {-1, -1};
  if (capture && ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (capture) {
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (capture) ::close(pipe_fds[1]);
  if (spawned != 0) {
    if (capture) ::close(pipe_fds[0]);
    throw ProgramNotFound(fmt::format("cannot run {}: {}", argv[0], std::strerror(spawned)));
  }
  ProgramResult result;
  if (capture) {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      result.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
  }
  while (::waitpid(pid, &result.wait_status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  return result;
}

}  // namespace angara
