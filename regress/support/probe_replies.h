#pragma once
// Lone probe packets through a machine built from a config, in a child process (isolated.h):
// [latency, hops] per probe, in the probes' order.

#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "models/core/zero_load.h"
#include "models/topology/topology.h"
#include "platform/experiments/probe_run.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara::test {

inline nlohmann::json probe_replies(const Config& config, const std::vector<Probe>& probes) {
  return run_isolated([&] {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : run_probes(config, probes)) out.push_back({d.latency, d.hops});
    return out;
  });
}

// A probe of 1 and one of 16 data flits from each pair's source to its destination, 3000 cycles
// apart: each travels alone.
inline std::vector<Probe> lone_probes(const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  std::vector<Probe> probes;
  Cycle t = 0;
  for (auto [src, dst] : pairs) {
    for (int flits : {1, 16}) {
      probes.push_back({src, {dst, flits, t}});
      t += 3000;
    }
  }
  return probes;
}

// probe_replies() in AT, expected to be the same in LT and in LT with buffers.
inline nlohmann::json replies_in_every_mode(const Config& config,
                                            const std::vector<Probe>& probes) {
  const auto at = probe_replies(in_mode(config, SimMode::At), probes);
  EXPECT_EQ(probe_replies(in_mode(config, SimMode::Lt), probes), at);
  EXPECT_EQ(probe_replies(lt_with_buffers(config), probes), at);
  return at;
}

// Lone probes between `pairs` take, in every mode, the machine's fewest hops and the zero-load
// formula's cycles over them. Returns their replies (AT's).
inline nlohmann::json expect_zero_load_formula(
    const Config& config, const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  const Topology topology(config.topology);
  const std::vector<Probe> probes = lone_probes(pairs);
  const auto replies = replies_in_every_mode(config, probes);
  EXPECT_EQ(replies.size(), probes.size());
  for (std::size_t i = 0; i < probes.size() && i < replies.size(); ++i) {
    const int hops = topology.min_hops(probes[i].src, probes[i].packet.dst);
    EXPECT_EQ(replies[i][1].get<int>(), hops);
    EXPECT_EQ(replies[i][0].get<Cycle>(),
              zero_load_latency(config.fabric(), hops, 1 + probes[i].packet.data_flits))
        << topology.node_name(probes[i].src) << " -> " << topology.node_name(probes[i].packet.dst);
  }
  return replies;
}

}  // namespace angara::test
