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

// Runs `config` (once per process, like run_experiment) and returns the SVG text.
std::string draw_diagram(Config config, const DiagramRequest& request);

}  // namespace angara
