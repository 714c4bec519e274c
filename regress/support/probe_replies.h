#pragma once
// Lone probe packets through a machine built from a config, in a child process (isolated.h):
// [latency, hops] per probe, in the probes' order.

#include <vector>

#include <nlohmann/json.hpp>

#include "platform/experiments/probe_run.h"
#include "regress/support/isolated.h"

namespace angara::test {

inline nlohmann::json probe_replies(const Config& config, const std::vector<Probe>& probes) {
  return run_isolated([&] {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : run_probes(config, probes)) out.push_back({d.latency, d.hops});
    return out;
  });
}

}  // namespace angara::test
