#pragma once
// `angara-sim diagram`: one packet's passage through one block of one node, as an SVG timing
// diagram. The experiment runs with tracing on that node; the window opens two cycles before
// the block's first packet and closes three cycles after the packet has left it.

#include <optional>
#include <string>

#include "platform/config/config.h"

namespace angara {

struct DiagramRequest {
  std::vector<int> node;          // coordinates
  std::string block;              // a scope under the node: vcup_xp, vcdown_ym, link_xp,
                                  // pegroup_fifo, broadcaster, reducer, credit_block, credits_xp
  std::optional<Cycle> from, to;  // the window, cycles; default: the block's first packet
};

// The most cycles one diagram draws: its SVG grows by about 100 bytes a cycle and signal.
inline constexpr Cycle kMaxDiagramCycles = 100000;

// Refuses, before the run, a workload kind that records no waveform (only synthetic and
// collective runs do) and a window given by --from and --to wider than kMaxDiagramCycles.
void check_diagram(const Config& config, const DiagramRequest& request);

// Runs `config` (once per process, like run_experiment) and returns the SVG text.
std::string draw_diagram(Config config, const DiagramRequest& request);

}  // namespace angara
