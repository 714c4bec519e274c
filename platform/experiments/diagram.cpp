#include "platform/experiments/diagram.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/core/config_error.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/experiments/trace_files.h"
#include "platform/machine/trace_signals.h"
#include "platform/waveform/vcd.h"

namespace angara {

std::string draw_diagram(Config config, const DiagramRequest& request) {
  config.trace.nodes = {request.node};
  config.trace.blocks = TraceParams{}.blocks;
  const auto file = std::filesystem::temp_directory_path() /
                    fmt::format("angara-diagram-{}.vcd", static_cast<long>(getpid()));
  config.trace.file = file.string();
  config.sim.progress = false;
  if (config.workload.kind == WorkloadKind::Collective) {
    run_collective_experiment(config);
  } else {
    run_experiment(config);
  }
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  in.close();
  for (const auto& output : trace_outputs(config.trace)) std::filesystem::remove(output.second);
  const Vcd vcd = parse_vcd(text.str());

  const std::string prefix = module_name("router", request.node) + "." + request.block + ".";
  std::vector<std::string> names;
  for (const VcdSignal& s : vcd.signals) {
    if (s.name.rfind(prefix, 0) == 0) names.push_back(s.name);
  }
  if (names.empty()) {
    throw ConfigError("--block", request.block,
                      fmt::format("no such block traced at node [{}]; blocks are vcup_<port>, "
                                  "vcdown_<port>, vc_<port>, link_<port>, credits_<port> (ports "
                                  "xp, xm, yp, ..., local), pegroup_fifo, broadcaster, reducer, "
                                  "credit_block",
                                  fmt::join(request.node, ", ")));
  }
  const std::uint64_t period =
      static_cast<std::uint64_t>(std::llround(config.router.cycle_ns() * 1000.0));
  // The window: the first packet's stay in the block, unless given.
  std::uint64_t from = request.from ? *request.from * period : 0;
  std::uint64_t to = request.to ? *request.to * period : 0;
  std::uint64_t packet = 0;
  if (!request.from || !request.to) {
    const VcdSignal* id = vcd.find(prefix + "packet");
    if (!id) id = vcd.find(names.front());
    const auto busy = std::find_if(id->changes.begin(), id->changes.end(),
                                   [](const auto& c) { return c.second != 0; });
    if (busy == id->changes.end()) {
      throw ConfigError("--block", request.block, "no packet passed this block in the run");
    }
    packet = busy->second;
    const auto idle =
        std::find_if(busy, id->changes.end(), [](const auto& c) { return c.second == 0; });
    if (!request.from) from = busy->first > 2 * period ? busy->first - 2 * period : 0;
    if (!request.to)
      to = (idle == id->changes.end() ? busy->first + 20 * period : idle->first) + 3 * period;
  }
  if (to <= from) throw ConfigError("--to", std::to_string(to / period), "must come after --from");
  const std::string title =
      fmt::format("node ({}) {}{}: cycles {}..{}", fmt::join(request.node, ","), request.block,
                  packet ? fmt::format(", packet {:x}", packet) : "", from / period, to / period);
  return draw_timing_svg(vcd, names, from, to, period, title);
}

}  // namespace angara
