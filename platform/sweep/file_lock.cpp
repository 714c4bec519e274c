#include "platform/sweep/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

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
