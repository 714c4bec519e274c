// The config loader's partitions: a machine cut into tori, each with its own workload keys.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "platform/config/config_loader.h"

namespace angara {
namespace {

Config load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_config(text, "test.toml", overrides);
}

constexpr const char* kPartitioned = R"(
[topology]
dims = [6, 4]
[traffic]
rate = 0.2
pattern = "transpose"
[sim]
seed = 10
[[partition]]
origin = [0, 0]
dims = [4, 4]
[partition.traffic]
rate = 0.5
[[partition]]
origin = [4, 2]
dims = [2, 2]
seed = 3
[partition.workload]
kind = "collective"
)";

// A partition starts from the machine's workload sections and overrides them with its own keys;
// its seed is sim.seed + its index unless it gives one.
TEST(ConfigLoader, PartitionsInheritTheMachinesWorkloadKeys) {
  const Config c = load(kPartitioned);
  ASSERT_EQ(c.partitions.size(), 2U);
  EXPECT_EQ(c.partitions[0].traffic.rate, 0.5);
  EXPECT_EQ(c.partitions[0].traffic.pattern, TrafficPattern::Transpose);
  EXPECT_EQ(c.partitions[0].seed, 10U);
  EXPECT_EQ(c.partitions[1].traffic.rate, 0.2);
  EXPECT_EQ(c.partitions[1].workload.kind, WorkloadKind::Collective);
  EXPECT_EQ(c.partitions[1].seed, 3U);
  EXPECT_EQ(c.idle_nodes(), 24 - 16 - 4);

  const Config one = c.partition_config(1);
  EXPECT_TRUE(one.partitions.empty());
  EXPECT_EQ(one.topology.dims, (std::vector<int>{2, 2}));
  EXPECT_EQ(one.sim.seed, 3U);
  EXPECT_EQ(one.workload.kind, WorkloadKind::Collective);
  EXPECT_EQ(one.router.vcs, c.router.vcs);
  EXPECT_NO_THROW(one.validate());
}

TEST(ConfigLoader, PartitionedConfigLoadsBackFromItsToml) {
  const Config c = load(kPartitioned);
  const std::string toml = config_to_toml(c);
  EXPECT_NE(toml.find("[[partition]]"), std::string::npos);
  EXPECT_EQ(config_to_json(load(toml)), config_to_json(c));
  // A partition's standalone config is an ordinary one.
  const std::string alone = config_to_toml(c.partition_config(0));
  EXPECT_EQ(alone.find("partition"), std::string::npos);
  EXPECT_EQ(config_to_json(load(alone)), config_to_json(c.partition_config(0)));
}

// Each refusal names the partition's key.
TEST(ConfigLoader, PartitionErrorsNameThePartition) {
  const auto error_key = [](const std::string& text) {
    try {
      load(text);
    } catch (const ConfigError& e) {
      return e.key();
    }
    return std::string("(accepted)");
  };
  const std::string machine = "[topology]\ndims = [6, 4]\n";
  EXPECT_EQ(error_key(machine + "[[partition]]\norigin = [0, 0]\ndims = [4, 4]\n"
                                "[[partition]]\norigin = [3, 0]\ndims = [2, 2]\n"),
            "partition[1]");  // overlaps partition 0
  EXPECT_EQ(error_key(machine + "[[partition]]\norigin = [5, 0]\ndims = [2, 2]\n"),
            "partition[0].dims");  // past the machine's edge: no wrap
  EXPECT_EQ(error_key(machine + "[[partition]]\norigin = [0, 0]\ndims = [2, 2]\n"
                                "[partition.traffic]\nrate = 2.0\n"),
            "partition[0].traffic.rate");
  EXPECT_EQ(error_key(machine + "[[partition]]\norigin = [0, 0]\ndims = [2, 2]\n"
                                "[partition.workload]\nkind = \"msgrate\"\npeer = [2, 0]\n"),
            "partition[0].workload.peer");  // the partition's own coordinates
  EXPECT_EQ(error_key(machine + "[faults]\nrandom_links = 0.1\n"
                                "[[partition]]\norigin = [0, 0]\ndims = [2, 2]\n"),
            "faults");
  EXPECT_EQ(error_key(machine + "[[partition]]\norigin = [0, 0]\ndims = [2, 2]\n"
                                "[partition.sim]\nseed = 2\n"),
            "partition[0].sim");
}

}  // namespace
}  // namespace angara
