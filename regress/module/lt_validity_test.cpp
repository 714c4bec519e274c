// LT's verdict on its own run (platform/experiments/lt_validity.h): the contention every run
// counts, the same for a lone flow in every mode, and the verdict and warning that follow from
// it: ok for packets that never meet, beyond past saturation, none in AT's results.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "platform/experiments/experiment.h"
#include "platform/experiments/lt_validity.h"
#include "regress/support/in_mode.h"
#include "regress/support/isolated.h"

namespace angara {
namespace {

using test::run_isolated;

nlohmann::ordered_json run(const Config& c) {
  const nlohmann::json j =
      run_isolated([&] { return nlohmann::json(synthetic_output(c, {}).json); });
  return nlohmann::ordered_json::parse(j.dump());
}

// 8 back-to-back messages from (0,0,0) to (2,1,0) and nothing else: transit copies that follow
// one another and never wait.
Config lone_flow() {
  Config c;
  c.topology.dims = {4, 4, 4};
  c.traffic.rate = 0;
  c.traffic.probes = 8;
  c.traffic.probe_src = {0, 0, 0};
  c.traffic.probe_dst = {2, 1, 0};
  return c;
}

Config uniform(double rate) {
  Config c;
  c.topology.dims = {4, 4, 4};
  c.traffic.rate = rate;
  return c;
}

TEST(LtValidity, ALoneFlowNeverWaitsInAnyModeAndLtSaysOk) {
  for (const Config& c : test::every_mode(lone_flow())) {
    const auto r = run(c);
    const std::string name = c.sim.mode == SimMode::At ? "AT" : "LT";
    // Two transit hops (at (1,0,0) and (2,0,0)) and the ejection at (2,1,0), for each of 8.
    EXPECT_EQ(r["contention"]["transit_copies"], 8 * 3) << name;
    EXPECT_EQ(r["contention"]["waited_share"], 0.0) << name;
    EXPECT_EQ(r["contention"]["mean_queue"], 0.0) << name;
    if (c.sim.mode == SimMode::At) {
      EXPECT_FALSE(r.contains("lt_validity"));
      EXPECT_EQ(lt_warning(r), std::nullopt);
    } else if (c.sim.lt_buffers) {
      EXPECT_EQ(r["lt_validity"]["verdict"], "ok");
      EXPECT_EQ(lt_warning(r), std::nullopt);
    } else {  // without buffers LT does not vouch for its figures
      EXPECT_EQ(r["lt_validity"]["verdict"], "beyond");
      const auto warning = lt_warning(r);
      ASSERT_TRUE(warning.has_value());
      EXPECT_NE(warning->find("sim.lt_buffers = false"), std::string::npos) << *warning;
    }
  }
}

TEST(LtValidity, PastSaturationLtSaysBeyondAndWarnsNamingItsFigures) {
  const auto r = run(test::lt_with_buffers(uniform(1.0)));
  const auto& v = r["lt_validity"];
  EXPECT_EQ(v["verdict"], "beyond");
  EXPECT_GT(v["mean_queue"].get<double>(), kLtApproximate.mean_queue);
  EXPECT_EQ(v["mean_queue"], r["contention"]["mean_queue"]);
  EXPECT_EQ(v["limits"]["ok"]["mean_queue"], kLtOk.mean_queue);
  const auto warning = lt_warning(r);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("beyond"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("sim.mode = \"at\""), std::string::npos) << *warning;
  EXPECT_NE(warning->find(fmt::format("{:.2f}", v["mean_queue"].get<double>())), std::string::npos)
      << *warning;
}

TEST(LtValidity, AtAndLtCountAboutTheSameContentionBelowSaturation) {
  // 40% on 4x4x4 (about 80% of its sustained load): both count waits; LT's differ from AT's
  // by its arbitration (docs/LT.md), not by an order of magnitude.
  const double at = run(test::in_mode(uniform(0.4), SimMode::At))["contention"]["mean_queue"];
  const double lt = run(test::lt_with_buffers(uniform(0.4)))["contention"]["mean_queue"];
  EXPECT_GT(at, kLtOk.mean_queue);
  EXPECT_GT(lt, kLtOk.mean_queue);
  EXPECT_LT(lt, 2 * at);
  EXPECT_LT(at, 2 * lt);
}

TEST(LtValidity, TheVerdictFollowsTheThresholds) {
  const auto summary = [](double mean, double hottest, double injected = 0) {
    // busy 1000 cycles: the mean queue is wait / 1000
    return ContentionSummary{{10, 5, static_cast<std::uint64_t>(mean * 1000), 1000},
                             hottest,
                             0,
                             {10, 5, static_cast<std::uint64_t>(injected * 1000), 1000}};
  };
  const auto lt_verdict = [](const ContentionSummary& c) { return angara::lt_verdict(c, true); };
  EXPECT_EQ(angara::lt_verdict(summary(0, 0), false), LtVerdict::Beyond);
  EXPECT_EQ(lt_verdict(summary(0, 0)), LtVerdict::Ok);
  EXPECT_EQ(lt_verdict(summary(kLtOk.mean_queue, kLtOk.hottest_router_queue)), LtVerdict::Ok);
  EXPECT_EQ(lt_verdict(summary(0.2, kLtOk.hottest_router_queue)), LtVerdict::Approximate);
  EXPECT_EQ(lt_verdict(summary(0.05, 0.5)), LtVerdict::Approximate);  // one hot router
  EXPECT_EQ(lt_verdict(summary(0.05, 2.0)), LtVerdict::Beyond);
  EXPECT_EQ(lt_verdict(summary(0.6, 0.6)), LtVerdict::Beyond);
  // The processors' own copies held behind transit ones, with no transit copy waiting.
  EXPECT_EQ(lt_verdict(summary(0, 0, kLtOk.injected_queue)), LtVerdict::Ok);
  EXPECT_EQ(lt_verdict(summary(0, 0, 2.0)), LtVerdict::Approximate);
  EXPECT_EQ(lt_verdict(summary(0, 0, 4.0)), LtVerdict::Beyond);
}

TEST(LtValidity, APartitionsVerdictIsWarnedAboutWithItsIndex) {
  nlohmann::ordered_json inner{
      {"lt_validity", lt_validity_json({{10, 10, 5000, 1000}, 6.0, 0, {}}, true)}};
  nlohmann::ordered_json ok{
      {"lt_validity", lt_validity_json({{10, 0, 0, 1000}, 0.0, 0, {}}, true)}};
  const nlohmann::ordered_json results{
      {"partitions",
       {{{"partition", 0}, {"results", ok}}, {{"partition", 1}, {"results", inner}}}}};
  const auto warning = lt_warning(results);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("partition 1 of this run is beyond"), std::string::npos) << *warning;
}

}  // namespace
}  // namespace angara
