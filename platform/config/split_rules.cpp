#include "platform/config/split_rules.h"

#include <fmt/format.h>

#include "models/core/config_error.h"
#include "platform/config/config_values.h"

namespace angara {

// A head lands at start + latency + serialization(1), a credit at tail + latency.
Cycle lookahead(const Config& config) {
  const ChannelTiming link(config.link, config.router.clock_mhz);
  return link.latency + link.serialization(1);
}

void check_splittable(const Config& config, int ranks) {
  const std::string why = fmt::format(
      ": a run over several MPI ranks ({} here) does not model it; run it as one process", ranks);
  if (config.sim.mode == SimMode::Lt) {
    throw ConfigError("sim.mode", "\"lt\"",
                      "a run over several MPI ranks is AT only: LT books a packet's whole path "
                      "in one call through every router on it, so its routers cannot be apart; "
                      "run LT as one process (a sweep runs its points side by side)");
  }
  if (!config.topology.torus()) {
    throw ConfigError("topology.kind", config_values::json_value(config.topology.kind).dump(),
                      "the torus is split into boxes" + why);
  }
  if (config.router.switching == Switching::Wormhole) {
    throw ConfigError("router.switching", "\"wormhole\"",
                      "a worm spans routers that may be on other ranks" + why);
  }
  if (!config.partitions.empty()) {
    throw ConfigError("partition", fmt::format("{} partitions", config.partitions.size()),
                      "partitions run as processes of their own" + why);
  }
  if (config.trace.on()) throw ConfigError("trace.nodes", "(nodes given)", "waveforms" + why);
  if (config.stats.network) throw ConfigError("stats.network", "true", "statistics" + why);
  if (config.rtl.any()) {
    const bool reducer = config.rtl.reducer != BlockImpl::Model;
    throw ConfigError(
        reducer ? "rtl.reducer" : "rtl.vcup",
        config_values::json_value(reducer ? config.rtl.reducer : config.rtl.vcup).dump(),
        "RTL co-simulation" + why);
  }
  if (lookahead(config) < 2) {
    throw ConfigError("link.latency_ns", fmt::format("{}", config.link.latency_ns),
                      "ranks exchange what crosses a link once per window, and a window must be "
                      "shorter than the link's latency plus one flit: at least 1 cycle of "
                      "latency is needed");
  }
}

}  // namespace angara
