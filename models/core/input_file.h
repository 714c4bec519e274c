#pragma once
// Reading a file a user named, without ever blocking: a FIFO, a device, a socket or a directory
// is refused with the flag or key that named it before anything opens it for reading, and the
// files a run reads as inputs are remembered, so that no output of the same run replaces one.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace angara {

// Which file a path names, as the file system tells (st_dev, st_ino): two spellings of one file,
// a hard link or a symlink to it all have the same identity.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity of the file `path` names (symlinks followed), none if nothing is there.
std::optional<FileIdentity> file_identity(const std::filesystem::path& path);

// A file this process read as an input: the flag or key that named it (or what it is, "config
// file"), its path and identity.
struct InputFile {
  std::string name;
  std::filesystem::path path;
  FileIdentity identity;
};

// The whole of the regular file at `path`. Throws a ConfigError naming `key` (a flag "--out", a
// config key "compute.table", or, when empty, the file itself) when nothing is there or it is not
// a regular file, before opening it; opened with O_NONBLOCK, so a file swapped for a FIFO between
// the check and the open cannot block either. For files a tool reads back from its own output.
// `what` names the file in the rule ("no such config file").
std::string read_regular_file(const std::filesystem::path& path, const std::string& key = "",
                              const std::string& what = "file");

// The same for an input of the run (a config, a compute table, a sweep file, a waveform), which
// is remembered among inputs_read().
std::string read_input_file(const std::filesystem::path& path, const std::string& key = "",
                            const std::string& what = "file");

// Every input this process has read, in order: what the output writer refuses to replace.
const std::vector<InputFile>& inputs_read();

// The input among inputs_read() that is the file of `identity`, while the input's path still
// names that file (an inode is reused once its file is gone), or nullptr: a file no output and
// no lock may write.
const InputFile* input_of(const FileIdentity& identity);

}  // namespace angara
