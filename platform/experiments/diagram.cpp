#include "platform/experiments/diagram.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/config/config_values.h"
#include "platform/experiments/collective_experiment.h"
#include "platform/experiments/experiment.h"
#include "platform/machine/trace_signals.h"
#include "platform/waveform/vcd.h"

namespace angara {

namespace {

// The directory the waveform a diagram is drawn from goes to: made by mkdtemp (mode 0700, a name
// nobody can guess), so that no other user can plant a file or a link where it is written, and
// removed with what is in it on every way out.
class PrivateDirectory {
 public:
  PrivateDirectory() {
    std::string name = (std::filesystem::temp_directory_path() / "angara-diagram-XXXXXX").string();
    if (!::mkdtemp(name.data())) {
      throw std::runtime_error(
          fmt::format("cannot make a directory {}: {}", name, std::strerror(errno)));
    }
    m_path = name;
  }
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  ~PrivateDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

// --to names the window's end, the flag that widens it.
void check_window(Cycle from, Cycle to) {
  if (to <= from) throw ConfigError("--to", std::to_string(to), "must come after --from");
  if (to - from > kMaxDiagramCycles) {
    throw ConfigError("--to", std::to_string(to),
                      fmt::format("a diagram draws at most {} cycles (here {}..{}, {} cycles): "
                                  "narrow --from and --to",
                                  kMaxDiagramCycles, from, to, to - from));
  }
}

}  // namespace

void check_diagram(const Config& config, const DiagramRequest& request) {
  if (!TraceParams::kind_traces(config.workload.kind)) {
    throw ConfigError("workload.kind", config_values::json_value(config.workload.kind).dump(),
                      "diagram draws a run of workload.kind = \"synthetic\" or \"collective\" "
                      "only: the other kinds record no waveform");
  }
  if (request.from && request.to) check_window(*request.from, *request.to);
}

std::string draw_diagram(Config config, const DiagramRequest& request) {
  config.trace.nodes = {request.node};
  config.trace.blocks = TraceParams{}.blocks;
  const PrivateDirectory scratch;
  config.trace.file = (scratch.path() / "diagram.vcd").string();
  config.sim.progress = false;
  if (config.workload.kind == WorkloadKind::Collective) {
    run_collective_experiment(config);
  } else {
    run_experiment(config);
  }
  const Vcd vcd = parse_vcd(read_regular_file(config.trace.file));

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
  const std::uint64_t period =  // fs, the waveform's time unit
      static_cast<std::uint64_t>(std::llround(config.router.cycle_ns() * 1e6));
  // The window: the first packet's stay in the block, unless given.
  std::uint64_t from = request.from ? *request.from * period : 0;
  std::uint64_t to = request.to ? *request.to * period : 0;
  std::uint64_t packet = 0;
  if (!request.from || !request.to) {
    const VcdSignal* id = vcd.find(prefix + "packet");
    if (!id) id = vcd.find(names.front());
    const auto number = [](const auto& change) { return VcdSignal::vcd_number(change.second); };
    const auto busy = std::find_if(id->changes.begin(), id->changes.end(),
                                   [&](const auto& c) { return number(c) != 0; });
    if (busy == id->changes.end()) {
      throw ConfigError("--block", request.block, "no packet passed this block in the run");
    }
    packet = number(*busy);
    const auto idle =
        std::find_if(busy, id->changes.end(), [&](const auto& c) { return number(c) == 0; });
    if (!request.from) from = busy->first > 2 * period ? busy->first - 2 * period : 0;
    if (!request.to)
      to = (idle == id->changes.end() ? busy->first + 20 * period : idle->first) + 3 * period;
  }
  check_window(from / period, to / period);
  const std::string title =
      fmt::format("node ({}) {}{}: cycles {}..{}", fmt::join(request.node, ","), request.block,
                  packet ? fmt::format(", packet {:x}", packet) : "", from / period, to / period);
  return draw_timing_svg(vcd, names, from, to, period, title);
}

}  // namespace angara
