// Writing a run's files: the side files beside the results JSON, what the command line says, and
// all of them whole or none at all.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/core/config_error.h"
#include "platform/experiments/results_json.h"
#include "regress/support/file_checks.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
using test::file_text;
using test::refusal;

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
  EXPECT_EQ(file_text(m_dir / "r.json"), "{\n  \"nodes\": 2\n}\n");
  EXPECT_EQ(file_text(m_dir / "r.csv"), "a\n");
  EXPECT_EQ(said.str(), "per size: " + (m_dir / "r.csv").string() + "\ntwo nodes, 0.01 s -> " +
                            (m_dir / "r.json").string() + "\n");
}

TEST_F(RunOutputTest, NoFileIsWrittenWhenOneCannotBe) {
  fs::create_directories(m_dir);
  ASSERT_EQ(mkfifo((m_dir / "r.csv").c_str(), 0600), 0);  // the side file cannot be written
  std::ostringstream said;
  EXPECT_THROW(write_run_output(output(), m_dir / "r.json", said), ConfigError);
  EXPECT_TRUE(fs::is_fifo(m_dir / "r.csv"));
  EXPECT_FALSE(fs::exists(m_dir / "r.json"));
  EXPECT_EQ(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator()), 1);
  EXPECT_EQ(said.str(), "");
}

// A device (here a FIFO, as /dev/null would be), a directory, "" or a path under a file is
// refused naming the flag, before anything is written; a new or regular file is fine.
TEST_F(RunOutputTest, OnlyRegularOrNewFilesAreTargets) {
  fs::create_directories(m_dir / "adir");
  ASSERT_EQ(mkfifo((m_dir / "fifo").c_str(), 0600), 0);
  std::ofstream(m_dir / "file.txt") << "keep\n";
  EXPECT_EQ(refusal([&] { check_output_path("--out", m_dir / "new" / "r.json"); }), "");
  EXPECT_EQ(refusal([&] { check_output_path("--out", m_dir / "file.txt"); }), "");
  for (const fs::path& bad : {m_dir / "adir", m_dir / "fifo", fs::path(""), m_dir / "x/",
                              m_dir / "file.txt" / "r.json"}) {
    const std::string why = refusal([&] { check_output_path("--out", bad); });
    EXPECT_NE(why.find("'--out'"), std::string::npos) << bad << ": " << why;
  }
  std::ostringstream said;
  EXPECT_THROW(write_run_output(output(), m_dir / "fifo", said), ConfigError);
  EXPECT_TRUE(fs::is_fifo(m_dir / "fifo"));
  EXPECT_FALSE(fs::exists(m_dir / "fifo.csv"));
  EXPECT_THROW(write_file("x", m_dir / "adir", "trace.file"), ConfigError);
  EXPECT_TRUE(fs::is_directory(m_dir / "adir"));
}

// Two outputs naming one file (even spelled differently) are refused, naming the second.
TEST_F(RunOutputTest, CollidingOutputsAreRefused) {
  fs::create_directories(m_dir / "adir");
  const std::string why = refusal([&] {
    check_output_paths({{"--out", m_dir / "r.json"}, {"trace.file", m_dir / "adir/../r.json"}});
  });
  EXPECT_NE(why.find("'trace.file'"), std::string::npos) << why;
  EXPECT_NE(why.find("--out"), std::string::npos) << why;
  EXPECT_EQ(refusal([&] {
              check_output_paths({{"--out", m_dir / "r.json"}, {"trace.file", m_dir / "t.vcd"}});
            }),
            "");
  // A side file that would take the JSON's own name.
  std::ostringstream said;
  EXPECT_THROW(write_run_output(output(), m_dir / "r.csv", said), ConfigError);
  EXPECT_FALSE(fs::exists(m_dir / "r.csv"));
}

}  // namespace
}  // namespace angara
