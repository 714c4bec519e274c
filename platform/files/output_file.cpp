#include "platform/files/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <system_error>

#include "models/core/config_error.h"
#include "models/core/input_file.h"

namespace angara {
namespace {

namespace fs = std::filesystem;

// A temporary is named "<target>.XXXXXX.partial", the X random (mkostemps).
constexpr std::string_view kRandom = ".XXXXXX";
constexpr std::string_view kSuffix = ".partial";
constexpr std::size_t kTemporaryExtra = kRandom.size() + kSuffix.size();

ConfigError refused(const std::string& key, const fs::path& path, const std::string& rule) {
  return ConfigError(key, fmt::format("\"{}\"", path.string()), rule);
}

fs::path directory_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// The mode a file made by open(..., 0666) would get: mkostemps makes 0600.
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// Creates a temporary beside `target` with O_CREAT | O_EXCL, so whatever already stands at a
// name (a symlink planted there included) is never opened; `temporary` gets its name.
int create_temporary(const std::string& key, const fs::path& target, std::string& temporary) {
  temporary = (directory_of(target) / target.filename()).string();
  temporary.append(kRandom).append(kSuffix);
  const int fd = ::mkostemps(temporary.data(), static_cast<int>(kSuffix.size()), O_CLOEXEC);
  if (fd < 0) {
    throw refused(key, target,
                  fmt::format("cannot create a file in {}: {}", directory_of(target).string(),
                              std::strerror(errno)));
  }
  return fd;
}

// Writes `text` to a new temporary beside `target`, synced and closed: its name; on any failure
// the temporary is removed and the error names the step.
std::string write_temporary(const std::string& key, const fs::path& target,
                            const std::string& text) {
  std::string temporary;
  int fd = create_temporary(key, target, temporary);
  const auto failed = [&](const char* step) {
    const int error = errno ? errno : EIO;
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    return refused(
        key, target,
        fmt::format("{} its temporary {} failed: {}", step, temporary, std::strerror(error)));
  };
  if (::fchmod(fd, new_file_mode()) != 0) throw failed("setting the mode of");
  for (std::size_t done = 0; done < text.size();) {
    errno = 0;
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw failed("writing");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw failed("syncing");
  const int closed = ::close(fd);
  fd = -1;
  if (closed != 0) throw failed("closing");
  return temporary;
}

// The largest name `dir` takes (NAME_MAX when it does not say).
std::size_t name_max(const fs::path& dir) {
  const long max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return max > 0 ? static_cast<std::size_t>(max) : NAME_MAX;
}

// Names too long for the file system, seen before any of them is made.
void check_lengths(const std::string& key, const fs::path& path, const fs::path& existing) {
  const std::size_t max = name_max(existing);
  const std::string name = path.filename().string();
  if (name.size() + kTemporaryExtra > max) {
    throw refused(key, path,
                  fmt::format("its name is {} bytes long, and with its temporary's \"{}{}\" it "
                              "must fit in {}: at most {} bytes",
                              name.size(), kRandom, kSuffix, max, max - kTemporaryExtra));
  }
  for (const auto& part : fs::absolute(directory_of(path)).lexically_relative(existing)) {
    if (part.string().size() > max) {
      throw refused(
          key, path,
          fmt::format("the directory name \"{}\" is longer than {} bytes", part.string(), max));
    }
  }
  if (fs::absolute(path).string().size() + kTemporaryExtra >= PATH_MAX) {
    throw refused(key, path, fmt::format("the path is longer than {} bytes", PATH_MAX - 1));
  }
}

// Every check of check_output_path; `probe` creates and removes a temporary beside the target
// (or a directory in the nearest one that exists) to prove the file system takes it: rights,
// a read-only mount, a file system that makes no files (/sys), whoever runs it.
void check_target(const std::string& key, const fs::path& path, bool probe) {
  if (path.empty()) throw ConfigError(key, "\"\"", "name the file to write");
  if (!path.has_filename()) {
    throw refused(key, path,
                  "names a directory: name a file to write (it goes to a temporary file beside "
                  "it, then takes its name)");
  }
  std::error_code error;
  const auto status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw refused(
        key, path,
        fmt::format("is {}, not a regular file: the file is written to a temporary "
                    "beside the target and renamed over it, which would replace it; "
                    "name a regular file or a new one",
                    fs::is_directory(status) ? "a directory" : "a device or other special file"));
  }
  if (const auto identity = file_identity(path)) {
    if (const InputFile* input = input_of(*identity)) {
      throw refused(key, path,
                    fmt::format("is the {} this run reads (\"{}\"): writing it would replace it; "
                                "name another file",
                                input->name, input->path.string()));
    }
  }
  // The nearest existing ancestor must be a directory, so that the missing ones can be made.
  fs::path existing = fs::absolute(directory_of(path));
  for (;;) {
    const auto s = fs::status(existing, error);
    if (fs::exists(s)) {
      if (!fs::is_directory(s)) {
        throw refused(key, path,
                      fmt::format("{} is not a directory, so the file cannot go under it",
                                  existing.string()));
      }
      break;
    }
    if (existing == existing.root_path()) break;
    existing = existing.parent_path();
  }
  check_lengths(key, path, existing);
  if (!probe) return;
  if (fs::equivalent(existing, fs::absolute(directory_of(path)), error)) {
    std::string temporary;
    ::close(create_temporary(key, path, temporary));
    ::unlink(temporary.c_str());
    return;
  }
  // The directories it goes under are made when it is written: one of ours made and removed
  // now proves they can be.
  std::string probe_dir = (existing / ".angara-probe-XXXXXX").string();
  if (!::mkdtemp(probe_dir.data())) {
    throw refused(
        key, path,
        fmt::format("cannot make directories in {}: {}", existing.string(), std::strerror(errno)));
  }
  ::rmdir(probe_dir.c_str());
}

// Throws when two of `outputs` name one file, however spelled.
void check_distinct(const std::vector<OutputTarget>& outputs) {
  std::vector<fs::path> resolved;
  for (const auto& [key, path] : outputs) {
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(fs::absolute(path), error);
    if (error) canonical = fs::absolute(path).lexically_normal();
    for (std::size_t i = 0; i < resolved.size(); ++i) {
      if (resolved[i] == canonical) {
        throw refused(key, path,
                      fmt::format("is the same file as {} (\"{}\"): one would overwrite the "
                                  "other; give them different names",
                                  outputs[i].first, outputs[i].second.string()));
      }
    }
    resolved.push_back(canonical);
  }
}

// Syncs the directory of each of `files` once, after the renames: the files' data were synced
// before, and this makes their new names last through a crash too. A file system that cannot
// sync a directory says EINVAL, which leaves nothing to do.
void sync_directories(const std::vector<OutputText>& files) {
  std::vector<fs::path> synced;
  for (const auto& [key, path, text] : files) {
    const fs::path dir = directory_of(path);
    if (std::find(synced.begin(), synced.end(), dir) != synced.end()) continue;
    synced.push_back(dir);
    const auto failed = [&](const char* step, int error) {
      return refused(key, path,
                     fmt::format("it is written, but {} its directory {} failed: {}; the file's "
                                 "new name may be lost if the machine stops now",
                                 step, dir.string(), std::strerror(error)));
    };
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw failed("opening", errno);
    const int error = ::fsync(fd) == 0 ? 0 : errno;
    if (::close(fd) != 0 && error == 0) throw failed("closing", errno);
    if (error != 0 && error != EINVAL) throw failed("syncing", error);
  }
}

}  // namespace

void check_output_path(const std::string& key, const fs::path& path) {
  check_target(key, path, true);
}

void check_output_paths(const std::vector<OutputTarget>& outputs) {
  for (const auto& [key, path] : outputs) check_output_path(key, path);
  check_distinct(outputs);
}

void write_files(const std::vector<OutputText>& files) {
  std::vector<OutputTarget> targets;
  for (const auto& f : files) {
    check_target(f.key, f.path, false);
    targets.emplace_back(f.key, f.path);
  }
  check_distinct(targets);
  std::vector<std::string> temporaries;  // ours to remove until renamed
  try {
    for (const auto& [key, path, text] : files) {
      std::error_code error;
      if (path.has_parent_path()) fs::create_directories(path.parent_path(), error);
      if (error) throw refused(key, path, "cannot make its directory: " + error.message());
      temporaries.push_back(write_temporary(key, path, *text));
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (::rename(temporaries[i].c_str(), files[i].path.c_str()) != 0) {
        throw refused(files[i].key, files[i].path,
                      fmt::format("renaming its temporary {} over it failed: {}", temporaries[i],
                                  std::strerror(errno)));
      }
      temporaries[i].clear();
    }
    sync_directories(files);
  } catch (...) {
    for (const auto& temporary : temporaries) {
      if (!temporary.empty()) ::unlink(temporary.c_str());
    }
    throw;
  }
}

void write_file(const std::string& text, const fs::path& path, const std::string& key) {
  write_files({{key, path, &text}});
}

}  // namespace angara
