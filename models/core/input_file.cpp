#include "models/core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "models/core/config_error.h"

namespace angara {
namespace {

std::vector<InputFile>& inputs() {
  static std::vector<InputFile> files;
  return files;
}

ConfigError refused(const std::filesystem::path& path, const std::string& key,
                    const std::string& rule) {
  if (key.empty()) return ConfigError(ConfigError::Subject::File, path.string(), "", rule);
  return ConfigError(key, fmt::format("\"{}\"", path.string()), rule);
}

// Why a file of this type is not read, or empty for a regular file.
std::string not_regular(mode_t mode, const std::string& what) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return fmt::format("is a directory, not a {}", what);
  return fmt::format("is a {}, not a regular file: reading it could wait forever",
                     S_ISFIFO(mode)   ? "FIFO"
                     : S_ISSOCK(mode) ? "socket"
                                      : "device");
}

// Closes the descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string read_whole(const std::filesystem::path& path, const std::string& key,
                       const std::string& what, FileIdentity* identity) {
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) {
    throw refused(path, key,
                  errno == ENOENT ? fmt::format("no such {}", what)
                                  : fmt::format("cannot be read: {}", std::strerror(errno)));
  }
  if (const auto why = not_regular(before.st_mode, what); !why.empty()) {
    throw refused(path, key, why);
  }
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  struct stat opened {};
  if (file.fd < 0 || ::fstat(file.fd, &opened) != 0) {
    throw refused(path, key, fmt::format("cannot be read: {}", std::strerror(errno)));
  }
  if (const auto why = not_regular(opened.st_mode, what); !why.empty()) {
    throw refused(path, key, why);
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw refused(path, key, fmt::format("cannot be read: {}", std::strerror(errno)));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (identity) *identity = {opened.st_dev, opened.st_ino};
  return text;
}

}  // namespace

std::optional<FileIdentity> file_identity(const std::filesystem::path& path) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) return std::nullopt;
  return FileIdentity{s.st_dev, s.st_ino};
}

std::string read_regular_file(const std::filesystem::path& path, const std::string& key,
                              const std::string& what) {
  return read_whole(path, key, what, nullptr);
}

std::string read_input_file(const std::filesystem::path& path, const std::string& key,
                            const std::string& what) {
  FileIdentity identity;
  std::string text = read_whole(path, key, what, &identity);
  const bool known = std::any_of(inputs().begin(), inputs().end(),
                                 [&](const InputFile& f) { return f.identity == identity; });
  if (!known) inputs().push_back({key.empty() ? what : key, path, identity});
  return text;
}

const std::vector<InputFile>& inputs_read() {
  return inputs();
}

const InputFile* input_of(const FileIdentity& identity) {
  for (const InputFile& input : inputs()) {
    if (input.identity == identity && file_identity(input.path) == input.identity) return &input;
  }
  return nullptr;
}

}  // namespace angara
