#include "platform/experiments/lt_validity.h"

#include <fmt/format.h>

namespace angara {
namespace {

bool within(const ContentionSummary& c, const LtVerdictLimits& limits) {
  return c.all.queue() <= limits.mean_queue && c.hottest_queue <= limits.hottest_router_queue &&
         c.injected.queue() <= limits.injected_queue;
}

const char* name(LtVerdict v) {
  switch (v) {
    case LtVerdict::Ok:
      return "ok";
    case LtVerdict::Approximate:
      return "approximate";
    case LtVerdict::Beyond:
      return "beyond";
  }
  return "";
}

nlohmann::ordered_json limits_json(const LtVerdictLimits& limits) {
  return {{"mean_queue", limits.mean_queue},
          {"hottest_router_queue", limits.hottest_router_queue},
          {"injected_queue", limits.injected_queue}};
}

std::optional<std::string> warning_of(const nlohmann::ordered_json& validity,
                                      const std::string& where) {
  const std::string verdict = validity.at("verdict").get<std::string>();
  if (verdict == "ok") return std::nullopt;
  if (!validity.at("buffers").get<bool>()) {
    return fmt::format(
        "LT's verdict on {}this run is {}: without buffers (sim.lt_buffers = false) LT leaves "
        "out what they limit, so its figures are not checked against AT's. Run it with LT's "
        "buffers (the default) or in AT; docs/LT.md, \"LT without buffers\".",
        where, verdict);
  }
  const bool approximate = verdict == "approximate";
  return fmt::format(
      "LT's verdict on {}this run is {}: its transit packets waited {:.2f} packets' time on "
      "average and {:.2f} at the busiest router, the processors' own packets {:.2f} for others "
      "at their first router, where LT gives AT's mean latency and accepted throughput within "
      "5% up to {:.2f}, {:.2f} and {:.2f}; {}. Read it in AT "
      "(sim.mode = \"at\"; a large machine splits over MPI ranks, docs/PARALLEL.md); "
      "docs/LT.md gives the errors measured at each verdict.",
      where, verdict, validity.at("mean_queue").get<double>(),
      validity.at("hottest_router_queue").get<double>(),
      validity.at("injected_queue").get<double>(), kLtOk.mean_queue, kLtOk.hottest_router_queue,
      kLtOk.injected_queue,
      approximate ? "here accepted throughput is within 5% of AT's and latencies and completion "
                    "times within 25%"
                  : "here (near or past saturation) its figures may be far from AT's");
}

}  // namespace

LtVerdict lt_verdict(const ContentionSummary& contention, bool buffers) {
  if (!buffers) return LtVerdict::Beyond;
  if (within(contention, kLtOk)) return LtVerdict::Ok;
  return within(contention, kLtApproximate) ? LtVerdict::Approximate : LtVerdict::Beyond;
}

nlohmann::ordered_json lt_validity_json(const ContentionSummary& contention, bool buffers) {
  return {{"verdict", name(lt_verdict(contention, buffers))},
          {"buffers", buffers},
          {"mean_queue", contention.all.queue()},
          {"hottest_router_queue", contention.hottest_queue},
          {"injected_queue", contention.injected.queue()},
          {"limits", {{"ok", limits_json(kLtOk)}, {"approximate", limits_json(kLtApproximate)}}}};
}

std::optional<std::string> lt_warning(const nlohmann::ordered_json& results) {
  if (results.contains("lt_validity")) return warning_of(results["lt_validity"], "");
  if (!results.contains("partitions")) return std::nullopt;
  for (const auto& partition : results["partitions"]) {
    const auto& inner = partition.at("results");
    if (!inner.contains("lt_validity")) continue;
    if (auto w =
            warning_of(inner["lt_validity"],
                       fmt::format("partition {} of ", partition.at("partition").get<int>()))) {
      return w;
    }
  }
  return std::nullopt;
}

}  // namespace angara
