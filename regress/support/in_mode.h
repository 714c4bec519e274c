#pragma once
// A test's config run in one mode, without progress lines.

#include "platform/config/config.h"

namespace angara::test {

inline Config in_mode(Config c, SimMode mode) {
  c.sim.mode = mode;
  c.sim.progress = false;
  return c;
}

}  // namespace angara::test
