#include "platform/sweep/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/sweep/sweep_files.h"

namespace angara {

std::optional<FileLock> FileLock::try_take(const std::filesystem::path& path) {
  // O_NONBLOCK: a FIFO put there does not hang the open; O_NOFOLLOW: nor is a symlink followed.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  const auto fail = [&](const std::string& why) {
    if (fd >= 0) ::close(fd);
    return std::runtime_error("cannot take the lock " + path.string() + ": " + why);
  };
  if (fd < 0) throw fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw fail("not a regular file");
  // Opened without truncating, so an input of the run standing at the lock's name (a sweep file
  // kept in --out under that name, a hard link to a config) is found before anything writes it.
  if (const InputFile* input = input_of({st.st_dev, st.st_ino})) {
    ::close(fd);
    throw ConfigError(ConfigError::Subject::File, path.string(), "",
                      fmt::format("is the {} this run reads (\"{}\"): a lock there would "
                                  "write into it (a runner's records its pid); give the sweep a "
                                  "directory of its own (--out)",
                                  input->name, input->path.string()));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw fail(std::strerror(errno));
    ::close(fd);
    return std::nullopt;
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : m_fd(other.m_fd) {
  other.m_fd = -1;
}

FileLock::~FileLock() {
  if (m_fd >= 0) ::close(m_fd);
}

void FileLock::write_pid() const {
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, pid.data(), pid.size(), 0) < 0) {
    throw std::runtime_error(std::string("cannot record the lock's holder: ") +
                             std::strerror(errno));
  }
}

std::string FileLock::holder(const std::filesystem::path& path) {
  std::string pid = read_text(path);
  while (!pid.empty() && !std::isdigit(static_cast<unsigned char>(pid.back()))) pid.pop_back();
  return pid.empty() || pid.size() > 10 ? "unknown" : pid;
}

}  // namespace angara
