#pragma once
// Runs another program (gnuplot, sbatch) from an argument vector: no shell ever parses a word of
// it, so a file name or a title holding quotes, `;`, `$(...)` or a newline is only that text.

#include <stdexcept>
#include <string>
#include <vector>

namespace angara {

// The program was not found on PATH (or could not be started at all).
class ProgramNotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProgramResult {
  int wait_status = 0;  // as waitpid gives it
  std::string output;   // stdout and stderr together, when captured
  bool ok() const;      // exited with status 0
};

// Runs argv[0] (looked up on PATH) with `argv` and waits for it. With `capture` its stdout and
// stderr are returned in `output`; without, they go to ours. Its stdin is /dev/null.
ProgramResult run_program(const std::vector<std::string>& argv, bool capture);

// "exit status 3" or "killed by signal 9", for messages.
std::string exit_text(int wait_status);

}  // namespace angara
