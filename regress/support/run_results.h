#pragma once
// A config's experiment run in a child process (isolated.h), its results JSON back; and the check
// the fabric tests share: every packet injected is delivered at each offered load, in AT, LT and
// LT with buffers (the ledger inside the model throws on a lost, doubled or damaged packet, and
// the watchdog on a deadlock).

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "platform/experiments/experiment.h"
#include "platform/experiments/results_json.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara::test {

inline nlohmann::json run_results(const Config& config) {
  return run_isolated([&] { return nlohmann::json(to_json(run_experiment(config))); });
}

inline void expect_nothing_lost_in_every_mode(const Config& base,
                                              std::initializer_list<double> rates,
                                              Cycle warmup_cycles, Cycle measure_cycles) {
  for (const Config& c : test::every_mode(base)) {
    for (double rate : rates) {
      Config load = c;
      load.traffic.rate = rate;
      load.sim.warmup_cycles = warmup_cycles;
      load.sim.measure_cycles = measure_cycles;
      const auto r = run_results(load);
      SCOPED_TRACE(r["config"]["topology"].dump() + r["config"]["router"].dump() +
                   r["config"]["sim"]["mode"].dump() + r["config"]["sim"]["lt_buffers"].dump() +
                   " rate " + std::to_string(rate));
      EXPECT_GT(r["packets_injected_total"].get<std::uint64_t>(), 0U);
      EXPECT_EQ(r["packets_injected_total"], r["packets_delivered_total"]);
    }
  }
}

}  // namespace angara::test
