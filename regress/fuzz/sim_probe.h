#pragma once
// An accepted config run through angara-sim, briefly and under a time limit, to catch what the
// loaders accept and the model then crashes or hangs on. angara-sim's exit status must be one it
// documents: 0 success, 2 bad config (naming the key), 3 model failure (a ModelError: deadlock
// watchdog, conservation checker).

#include <string>
#include <vector>

namespace angara::fuzz {

enum class RunVerdict {
  Ok,            // exit 0
  BadConfig,     // exit 2, naming a key: a check the run makes once the machine is built
  ModelFailure,  // exit 3 with a ModelError
  Failed,        // a signal, the time limit, exit 3 from another exception, any other status
};

struct RunOutcome {
  RunVerdict verdict = RunVerdict::Failed;
  std::string detail;  // for Failed: what happened, and the tail of angara-sim's output
};

// Runs `sim run CONFIG --quiet --out results.json ARGS...` in `work_dir` (which receives its
// log and results) and kills it after `timeout_seconds`.
RunOutcome probe_run(const std::string& sim, const std::string& config,
                     const std::vector<std::string>& args, const std::string& work_dir,
                     double timeout_seconds);

}  // namespace angara::fuzz
