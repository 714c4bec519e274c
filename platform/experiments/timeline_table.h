#pragma once
// The table of a run's traffic over time ([stats] interval_cycles; docs/STATS.md): a row per
// interval, written beside the results as ".intervals.csv".

#include <optional>

#include "platform/config/config.h"
#include "platform/experiments/results_json.h"
#include "platform/parallel/ranks.h"
#include "workloads/synthetic/traffic_timeline.h"

namespace angara {

inline constexpr const char* kIntervalsExtension = ".intervals.csv";

// The table from every rank's part of `timeline` (rank 0; the other ranks get none), its rows
// from cycle 0 to `end`, the run's last cycle (sim_cycles). Call it on every rank.
std::optional<SideFile> timeline_table(const TrafficTimeline& timeline, const Config& config,
                                       Cycle end, const Ranks& ranks);

}  // namespace angara
