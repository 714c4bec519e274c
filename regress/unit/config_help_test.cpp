// What the config loader tells a user: --help lists every key with its default and units and
// every value of a key that takes a name; and every example file in configs/ loads, default.toml
// with every key at its built-in default.

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <filesystem>
#include <string>
#include <utility>

#include "platform/config/config_loader.h"
#include "regress/support/dotted_keys.h"

namespace angara {
namespace {

using test::dotted_keys;

TEST(ConfigLoader, HelpListsEveryKeyWithItsDefaultAndUnits) {
  const std::string help = config_keys_help();
  const auto defaults = config_to_json(Config{});
  for (const auto& key : dotted_keys(defaults)) {
    EXPECT_NE(help.find(key + " "), std::string::npos) << key;
  }
  EXPECT_NE(help.find("500.0"), std::string::npos);
  EXPECT_NE(help.find("\"dimension_order\""), std::string::npos);
  for (const char* unit : {"MHz", "Gbit/s", "ns", "flits", "cycles"}) {
    EXPECT_NE(help.find(unit), std::string::npos) << unit;
  }
}

// The lines --help gives `key`: its own and any continuation lines (indented).
std::string help_of(const std::string& help, const std::string& key) {
  const auto at = help.find("\n" + key + " ");
  if (at == std::string::npos) return "";
  auto end = help.find('\n', at + 1);
  while (end != std::string::npos && end + 1 < help.size() && help[end + 1] == ' ') {
    end = help.find('\n', end + 1);
  }
  return help.substr(at, end - at);
}

// The values come from the loader's own tables, so none is left out of a hand-written list.
TEST(ConfigLoader, HelpListsEveryValueOfAnEnumeratedKey) {
  const std::string help = config_keys_help();
  const std::pair<const char*, const char*> expected[] = {
      {"workload.kind", "values: synthetic, collective, msgrate, pingpong, software, spmv, heat"},
      {"workload.algorithm", "values: tree, binomial, recursive_doubling, subnet"},
      {"topology.kind", "values: torus, fat_tree"},
      {"traffic.injection", "values: bernoulli, poisson, on_off"},
      {"pcie.encoding", "values: 8b10b, 128b130b"},
      {"rtl.reducer", "values: model, check, drive"},
      {"trace.blocks",
       "values: link, vc, vcup, vcdown, pegroup_fifo, broadcaster, reducer, credit"}};
  for (const auto& [key, values] : expected) {
    EXPECT_NE(help_of(help, key).find(values), std::string::npos) << help_of(help, key);
  }
  EXPECT_EQ(help_of(help, "traffic.rate").find("values:"), std::string::npos);
}

TEST(ExampleConfigs, EveryFileInConfigsLoads) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ANGARA_CONFIGS_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW(load_config_file(entry.path(), {}));
    ++files;
  }
  EXPECT_GE(files, 4);
}

TEST(ExampleConfigs, DefaultTomlHasEveryKeyAndEqualsTheBuiltInDefaults) {
  const std::filesystem::path path = std::filesystem::path(ANGARA_CONFIGS_DIR) / "default.toml";
  const auto file = toml::parse_file(path.string());
  for (const auto& key : dotted_keys(config_to_json(Config{}))) {
    EXPECT_TRUE(file.at_path(key)) << key << " missing from default.toml";
  }
  EXPECT_EQ(config_to_json(load_config_file(path, {})), config_to_json(Config{}));
}

}  // namespace
}  // namespace angara
