#pragma once
// The one writer of every file the tools write (results, side files, waveforms, tables,
// diagrams, sweep files, scripts): each text goes to a temporary created exclusively beside its
// target under a name nobody can guess, is written, synced and closed with every step checked,
// and is renamed over the target only when all of a group are whole, the targets' directories
// synced after; on any failure before the renames the temporaries are removed and the targets
// left as they were. A symlink is never written through (the rename replaces it), and a target
// that is an input of the run is refused.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace angara {

// A file to write, named by the flag or config key that gave its path ("--out", "trace.file").
using OutputTarget = std::pair<std::string, std::filesystem::path>;

// The dry pass over one output before a run: throws a ConfigError naming `key`, the path and the
// rule unless `path` names a regular file or a new one, is not an input this process read
// (inputs_read(), compared by file identity), has a name short enough to take a temporary
// beside it, and lies under a directory (existing or to be made) where a file can be created.
void check_output_path(const std::string& key, const std::filesystem::path& path);
// The same for each of `outputs`, and none two names of one file.
void check_output_paths(const std::vector<OutputTarget>& outputs);

// One text to write and where, for write_files.
struct OutputText {
  std::string key;
  std::filesystem::path path;
  const std::string* text;
};

// Writes every text whole or none of them (see above); errors are ConfigErrors naming the key.
void write_files(const std::vector<OutputText>& files);
// The same for one file.
void write_file(const std::string& text, const std::filesystem::path& path,
                const std::string& key = "output file");

}  // namespace angara
