// Reading an input never blocks: a FIFO, a device or a directory is refused with the key that
// named it, before it is opened (a test that hangs here has lost that check).

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "regress/support/file_checks.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
using test::refusal;

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("input_file_test_" + std::to_string(getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir / "adir");
    ASSERT_EQ(mkfifo((m_dir / "fifo").c_str(), 0600), 0);
    std::ofstream(m_dir / "t.csv") << "1,2\n";
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

TEST_F(InputFileTest, SpecialFilesAreRefusedWithTheKey) {
  const std::string fifo = refusal([&] { read_input_file(m_dir / "fifo", "compute.table"); });
  EXPECT_NE(fifo.find("config key 'compute.table'"), std::string::npos) << fifo;
  EXPECT_NE(fifo.find("is a FIFO"), std::string::npos) << fifo;
  const std::string device = refusal([&] { read_regular_file("/dev/null", "--sweep"); });
  EXPECT_NE(device.find("flag '--sweep'"), std::string::npos) << device;
  EXPECT_NE(device.find("is a device"), std::string::npos) << device;
  const std::string dir = refusal([&] { read_input_file(m_dir / "adir", "", "config file"); });
  EXPECT_NE(dir.find("is a directory, not a config file"), std::string::npos) << dir;
  const std::string missing = refusal([&] { read_input_file(m_dir / "no", "", "VCD file"); });
  EXPECT_NE(missing.find("no such VCD file"), std::string::npos) << missing;
}

// Only what was read whole is an input, once however often it is read; a file read back is not.
TEST_F(InputFileTest, InputsAreRememberedByIdentity) {
  const std::size_t before = inputs_read().size();
  EXPECT_EQ(read_input_file(m_dir / "t.csv", "compute.table"), "1,2\n");
  EXPECT_EQ(read_input_file(m_dir / "adir/../t.csv", "compute.table"), "1,2\n");
  refusal([&] { read_input_file(m_dir / "fifo", "compute.table"); });
  ASSERT_EQ(inputs_read().size(), before + 1);
  EXPECT_EQ(inputs_read().back().name, "compute.table");
  EXPECT_EQ(inputs_read().back().identity, file_identity(m_dir / "t.csv"));
  std::ofstream(m_dir / "own.json") << "{}";
  read_regular_file(m_dir / "own.json");
  EXPECT_EQ(inputs_read().size(), before + 1);
  EXPECT_FALSE(file_identity(m_dir / "none"));
}

// A hard link to an input is that input; once its path names another file, the old identity
// (whose inode may be reused) is no input any more.
TEST_F(InputFileTest, AnInputIsFoundByIdentityWhileItsPathNamesIt) {
  std::ofstream(m_dir / "c.toml") << "[topology]\n";
  read_input_file(m_dir / "c.toml", "", "config file");
  ASSERT_EQ(::link((m_dir / "c.toml").c_str(), (m_dir / "link").c_str()), 0);
  const InputFile* input = input_of(*file_identity(m_dir / "link"));
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input->name, "config file");
  EXPECT_EQ(input->path, m_dir / "c.toml");
  std::ofstream(m_dir / "other.txt") << "not read\n";
  EXPECT_EQ(input_of(*file_identity(m_dir / "other.txt")), nullptr);
  fs::remove(m_dir / "c.toml");
  std::ofstream(m_dir / "c.toml") << "[router]\n";
  EXPECT_EQ(input_of(*file_identity(m_dir / "link")), nullptr);
}

}  // namespace
}  // namespace angara
