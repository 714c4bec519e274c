#pragma once
// A test's config run in one mode, without progress lines.

#include <vector>

#include "platform/config/config.h"

namespace angara::test {

// In LT, links only (sim.lt_buffers = false): tests run it beside lt_with_buffers(), so that
// both LT variants stay covered.
inline Config in_mode(Config c, SimMode mode) {
  c.sim.mode = mode;
  c.sim.lt_buffers = false;
  c.sim.progress = false;
  return c;
}

// LT with the buffers behind the outputs modelled (sim.lt_buffers, LT's default).
inline Config lt_with_buffers(Config c) {
  c = in_mode(c, SimMode::Lt);
  c.sim.lt_buffers = true;
  return c;
}

// The same config in AT, LT without buffers and LT with them.
inline std::vector<Config> every_mode(const Config& c) {
  return {in_mode(c, SimMode::At), in_mode(c, SimMode::Lt), lt_with_buffers(c)};
}

}  // namespace angara::test
