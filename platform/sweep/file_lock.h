#pragma once
// An exclusive flock(2) on a lock file: one per sweep directory, held by its runner, and one per
// point, handed to the point's simulation and held until that process ends. The kernel drops a
// lock when its last holder dies, so a lock file left by a killed runner never blocks anyone.

#include <filesystem>
#include <optional>
#include <string>

namespace angara {

class FileLock {
 public:
  // Takes the lock on `path` (created if missing; a symlink or other non-file there is an
  // error, an input this process read a ConfigError), or nullopt if another process holds it.
  // The descriptor is close-on-exec.
  static std::optional<FileLock> try_take(const std::filesystem::path& path);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();

  // Records this process's pid in the file, for the message of a process the lock refuses.
  void write_pid() const;
  // The pid recorded in the lock file at `path`, or "unknown".
  static std::string holder(const std::filesystem::path& path);
  // The descriptor, for a child that is to hold the lock (it clears close-on-exec on it).
  int fd() const { return m_fd; }

 private:
  explicit FileLock(int fd) : m_fd(fd) {}
  int m_fd;
};

}  // namespace angara
