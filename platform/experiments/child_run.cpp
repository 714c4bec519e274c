#include "platform/experiments/child_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "models/core/config_error.h"
#include "models/core/packet_ledger.h"

namespace angara {
namespace {

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(99);  // the parent is gone, or the pipe broke: it reports a crash
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

nlohmann::ordered_json child_reply(const std::function<nlohmann::ordered_json()>& body) {
  try {
    return {{"ok", body()}};
  } catch (const ConfigError& e) {
    return {{"error", "ConfigError"}, {"what", e.what()}};
  } catch (const ModelError& e) {
    return {{"error", "ModelError"}, {"what", e.what()}};
  } catch (const std::exception& e) {
    return {{"error", "exception"}, {"what", e.what()}};
  }
}

}  // namespace

nlohmann::ordered_json run_in_child(const std::function<nlohmann::ordered_json()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) {
    throw ChildError("crash", std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw ChildError("crash", std::string("cannot start a process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    write_all(fds[1], child_reply(body).dump());
    ::close(fds[1]);
    std::fflush(nullptr);
    // No destructors: the child's kernel and the parent's objects it copied are not its own to
    // tear down.
    ::_exit(0);
  }
  ::close(fds[1]);
  const std::string text = read_all(fds[0]);  // before waiting: a full pipe would block the child
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    throw ChildError(
        "crash", WIFSIGNALED(status)
                     ? "the child was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                           strsignal(WTERMSIG(status)) + ")"
                     : "the child ended without an answer (status " + std::to_string(status) + ")");
  }
  auto reply = nlohmann::ordered_json::parse(text);
  if (reply.contains("error")) {
    throw ChildError(reply["error"].get<std::string>(), reply["what"].get<std::string>());
  }
  return reply["ok"];
}

}  // namespace angara
