#pragma once
// How much the transit copies a router sent (those that came in from a link) waited for others,
// counted over the whole run in every timing mode: each copy's wait between the cycle it could
// first start (its request's earliest: its pipeline and input order done, its packet's earlier
// copies through the crossbar input) and the cycle it started, against the cycles it then held its
// output. Their ratio is the mean queue a copy found, in copies of its own length: 0 for a packet
// alone in the network. LT's validity verdict reads it (docs/LT.md, "Where LT can be trusted").

#include <cstdint>

#include "models/core/ids.h"

namespace angara {

struct Contention {
  std::uint64_t copies = 0;       // copies sent (an LT train counts once)
  std::uint64_t waited = 0;       // of them, those that waited
  std::uint64_t wait_cycles = 0;  // their waits, all together
  std::uint64_t busy_cycles = 0;  // the cycles they held their outputs, all together

  void add(Cycle wait, Cycle length) {
    ++copies;
    waited += wait > 0;
    wait_cycles += wait;
    busy_cycles += length;
  }
  double waited_share() const {
    return copies == 0 ? 0.0 : static_cast<double>(waited) / static_cast<double>(copies);
  }
  // Copies of their own length a copy waited for, on average.
  double queue() const {
    return busy_cycles == 0 ? 0.0
                            : static_cast<double>(wait_cycles) / static_cast<double>(busy_cycles);
  }
};

// The contention of a whole run: all routers' counts together, and the largest mean queue one
// router's copies found (where the network was hottest). LT also: how far past the kernel's cycle
// the furthest of its bookings through a router reached (a copy's tail out), which its calendars
// hold until then; and how long the processors' own copies waited at their first router for
// other copies booked on their output (RouterCore::injected).
struct ContentionSummary {
  Contention all;
  double hottest_queue = 0;
  Cycle booked_ahead = 0;
  Contention injected;
};

}  // namespace angara
