#pragma once
// LT's verdict on its own run: where its answers are AT's and where they only approximate them.
// LT books a packet's whole path when it enters the network, so between packets that contend it
// arbitrates differently from AT (docs/LT.md); how far its answers move depends on how much
// packets waited for one another, which every run counts (contention.h). The verdict reads the
// mean queue a transit copy found, the largest one router's copies found and the mean queue of
// other copies the processors' own copies found on their first output (LT books transit copies
// first, so there they wait where AT's round robin would let them go), against thresholds taken
// from the fidelity matrix and the collective-design study's AT points (docs/LT.md gives the
// errors measured at each level).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/router/contention.h"

namespace angara {

enum class LtVerdict { Ok, Approximate, Beyond };

// The highest queues (copies of a copy's own length, contention.h) at which a verdict holds.
struct LtVerdictLimits {
  double mean_queue;
  double hottest_router_queue;
  double injected_queue;
};
inline constexpr LtVerdictLimits kLtOk{0.10, 0.35, 1.0};
inline constexpr LtVerdictLimits kLtApproximate{0.45, 1.0, 3.5};

// `buffers`: sim.lt_buffers. Without them LT leaves out what buffers limit (a stream moves at most
// a VC's buffer per credit round trip), which no contention shows: its verdict is beyond.
LtVerdict lt_verdict(const ContentionSummary& contention, bool buffers);

// The results' "lt_validity": the verdict, the figures behind it and the limits.
nlohmann::ordered_json lt_validity_json(const ContentionSummary& contention, bool buffers);

// The warning for results whose LT verdict (theirs, or any partition's) is not ok, naming the
// figures and pointing to AT; none for AT's results or an ok verdict.
std::optional<std::string> lt_warning(const nlohmann::ordered_json& results);

}  // namespace angara
