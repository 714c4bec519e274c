#include "regress/fuzz/sim_probe.h"

#include <fmt/format.h>

#include "regress/fuzz/tool_run.h"

namespace angara::fuzz {

RunOutcome probe_run(const std::string& sim, const std::string& config,
                     const std::vector<std::string>& args, const std::string& work_dir,
                     double timeout_seconds) {
  std::vector<std::string> words{sim, "run", config, "--quiet", "--out", "results.json"};
  words.insert(words.end(), args.begin(), args.end());
  const ToolRun run = run_tool(words, work_dir, timeout_seconds, "sim.log");
  if (const std::string abnormal = abnormal_end(run, timeout_seconds); !abnormal.empty()) {
    return {RunVerdict::Failed, abnormal};
  }
  const std::string& tail = run.tail;
  if (run.status == 0) return {RunVerdict::Ok, ""};
  // A bad config names its key, or the mutant file when it is not TOML at all.
  if (run.status == 2 && (tail.find("bad config: config key '") != std::string::npos ||
                          tail.find("bad config: file '") != std::string::npos)) {
    return {RunVerdict::BadConfig, ""};
  }
  if (run.status == 3 && tail.find("model failure: ") != std::string::npos) {
    return {RunVerdict::ModelFailure, ""};
  }
  return {RunVerdict::Failed,
          fmt::format("exit status {} (documented: 0, 2 naming a key, 3 a model failure)\n{}",
                      run.status, tail)};
}

}  // namespace angara::fuzz
