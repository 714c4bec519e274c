#pragma once
// Mutants of valid command lines for the CLI fuzzer: each one a seed command with one or two
// changes a hostile or careless user might make: a word replaced by a hostile value (a FIFO, a
// directory, a symlink, an input of the run, a shell or gnuplot command, a number out of range,
// control characters, invalid UTF-8), a `key=value` word's value replaced, words deleted,
// duplicated or swapped, a known flag added with a hostile value.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace angara::fuzz {

// A command line: the tool ("sim" or "sweep") and the words after its name.
struct Command {
  std::string tool;
  std::vector<std::string> words;
};

struct CommandMutant {
  std::size_t seed = 0;  // index into the mutator's seeds
  Command command;
  std::vector<std::string> steps;  // each change, e.g. "word 3 = \"fifo\""
};

// The marker a command that ran an injected shell or gnuplot command would create.
inline constexpr const char* kInjectionMarker = "PWNED";

// The seed commands of `path`: a line a command, `#` comments and blank lines skipped.
std::vector<Command> read_commands(const std::string& path);

class CommandMutator {
 public:
  explicit CommandMutator(std::vector<Command> seeds);

  // Mutant `index` of run `run_seed`, a function of the two numbers alone.
  CommandMutant make(std::uint64_t run_seed, std::uint64_t index) const;

  const std::vector<Command>& seeds() const { return m_seeds; }

 private:
  std::vector<Command> m_seeds;
  std::map<std::string, std::vector<std::string>> m_flags;  // by command: the flags seeds use
};

}  // namespace angara::fuzz
