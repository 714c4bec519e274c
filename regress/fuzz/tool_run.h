#pragma once
// One of the project's tools run as a user would, under a time limit: in its own working
// directory, stdin from /dev/null, stdout and stderr into one log there.

#include <string>
#include <vector>

namespace angara::fuzz {

struct ToolRun {
  bool started = false;
  bool timed_out = false;
  int signal = 0;    // the signal that ended it, else 0
  int status = 0;    // its exit status, when it exited
  std::string tail;  // the end of its output
};

// Runs `words` (the program first) in `work_dir`, its output in `work_dir`/`log_name`, and kills
// it after `timeout_seconds`; `env`: its environment ("NAME=value"), else this process's.
ToolRun run_tool(std::vector<std::string> words, const std::string& work_dir,
                 double timeout_seconds, const std::string& log_name = "tool.log",
                 std::vector<std::string>* env = nullptr);

// What went wrong with `run`, if anything but its exit status: a signal, the time limit.
std::string abnormal_end(const ToolRun& run, double timeout_seconds);

}  // namespace angara::fuzz
