// Writing a run's files: the side files beside the results JSON, what the command line says, and
// all of them whole or none at all.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "platform/experiments/results_json.h"

namespace angara {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class RunOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("run_output_test_" + std::to_string(getpid()));
    fs::remove_all(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

RunOutput output() {
  return {nlohmann::ordered_json{{"nodes", 2}}, "two nodes, 0.01 s", {{".csv", "per size", "a\n"}}};
}

TEST_F(RunOutputTest, SideFilesGoBesideTheJsonAndTheSummaryNamesTheJson) {
  std::ostringstream said;
  write_run_output(output(), m_dir / "r.json", said);
  EXPECT_EQ(read(m_dir / "r.json"), "{\n  \"nodes\": 2\n}\n");
  EXPECT_EQ(read(m_dir / "r.csv"), "a\n");
  EXPECT_EQ(said.str(), "per size: " + (m_dir / "r.csv").string() + "\ntwo nodes, 0.01 s -> " +
                            (m_dir / "r.json").string() + "\n");
}

TEST_F(RunOutputTest, NoFileIsWrittenWhenOneCannotBe) {
  fs::create_directories(m_dir / "r.json.partial");  // the JSON's temporary cannot be opened
  std::ostringstream said;
  EXPECT_ANY_THROW(write_run_output(output(), m_dir / "r.json", said));
  EXPECT_FALSE(fs::exists(m_dir / "r.csv"));
  EXPECT_FALSE(fs::exists(m_dir / "r.csv.partial"));
  EXPECT_FALSE(fs::exists(m_dir / "r.json"));
  EXPECT_TRUE(fs::is_directory(m_dir / "r.json.partial"));  // not ours, left alone
  EXPECT_EQ(said.str(), "");
}

}  // namespace
}  // namespace angara
