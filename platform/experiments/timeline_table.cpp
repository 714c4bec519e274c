#include "platform/experiments/timeline_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace angara {

namespace {

using Interval = TrafficTimeline::Interval;
constexpr std::array kCounts = {&Interval::created_packets, &Interval::created_flits,
                                &Interval::delivered_packets, &Interval::delivered_flits,
                                &Interval::outstanding_cycles};

// Every rank's intervals added up (rank 0), as one process would have counted them.
std::vector<Interval> merged(const TrafficTimeline& timeline, const Ranks& ranks) {
  if (!ranks.parallel()) return timeline.intervals();
  Bytes bytes;
  put(bytes, static_cast<std::uint64_t>(timeline.intervals().size()));
  for (const Interval& i : timeline.intervals()) {
    for (const auto field : kCounts) put(bytes, i.*field);
    put(bytes, i.latency.count());
    for (const Cycle sample : i.latency.samples()) put(bytes, sample);
  }
  const std::vector<Bytes> parts = ranks.gather(bytes);
  std::vector<Interval> all;
  if (!ranks.root()) return all;
  for (const Bytes& part : parts) {
    std::size_t at = 0;
    const auto count = take<std::uint64_t>(part, at);
    if (all.size() < count) all.resize(count);
    for (std::uint64_t k = 0; k < count; ++k) {
      for (const auto field : kCounts) all[k].*field += take<std::uint64_t>(part, at);
      const auto samples = take<std::uint64_t>(part, at);
      for (std::uint64_t s = 0; s < samples; ++s) all[k].latency.add(take<Cycle>(part, at));
    }
  }
  return all;
}

}  // namespace

std::optional<SideFile> timeline_table(const TrafficTimeline& timeline, const Config& config,
                                       Cycle end, const Ranks& ranks) {
  const std::vector<Interval> intervals = merged(timeline, ranks);
  if (!ranks.root()) return std::nullopt;
  const Cycle length = timeline.interval();
  const Cycle rows = std::max<Cycle>((end + length - 1) / length, intervals.size());
  const double nodes = config.topology.node_count();
  std::string text =
      "start_cycle,end_cycle,offered_flits_per_node_cycle,accepted_flits_per_node_cycle,"
      "packets_created,packets_delivered,latency_cycles.mean,latency_cycles.p50,"
      "latency_cycles.p99,latency_cycles.max,packets_outstanding\n";
  const Interval none;
  for (Cycle k = 0; k < rows; ++k) {
    const Interval& i = k < intervals.size() ? intervals[k] : none;
    const Cycle from = k * length;
    const Cycle to = std::max(from + 1, std::min(from + length, end));  // the last may be short
    const double cycles = static_cast<double>(to - from);
    text +=
        fmt::format("{},{},{},{},{},{},", from, to, i.created_flits / (nodes * cycles),
                    i.delivered_flits / (nodes * cycles), i.created_packets, i.delivered_packets);
    // No packet arrived: no latency, and a plot leaves a gap.
    if (i.latency.count() > 0) {
      text += fmt::format("{},{},{},{}", i.latency.mean(), i.latency.percentile(0.5),
                          i.latency.percentile(0.99), i.latency.max());
    } else {
      text += ",,,";
    }
    text += fmt::format(",{}\n", i.outstanding_cycles / cycles);
  }
  return SideFile{kIntervalsExtension, "over time", std::move(text)};
}

}  // namespace angara
