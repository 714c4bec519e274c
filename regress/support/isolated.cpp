#include "regress/support/isolated.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "models/core/config_error.h"
#include "models/core/packet_ledger.h"

namespace angara::test {
namespace {

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) _exit(99);
    done += static_cast<std::size_t>(n);
  }
}

nlohmann::json child_body(const std::function<nlohmann::json()>& body) {
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

nlohmann::json run_isolated(const std::function<nlohmann::json()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    write_all(fds[1], child_body(body).dump());
    close(fds[1]);
    std::fflush(nullptr);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[65536];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    throw IsolatedError("crash",
                        "the simulation child died (status " + std::to_string(status) + ")");
  }
  auto reply = nlohmann::json::parse(text);
  if (reply.contains("error")) throw IsolatedError(reply["error"], reply["what"]);
  return reply["ok"];
}

}  // namespace angara::test
