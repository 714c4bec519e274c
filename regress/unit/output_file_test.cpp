// The one writer: what it refuses before a run, and what it never does while writing (follow a
// link, replace an input, leave a temporary).

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "models/core/config_error.h"
#include "models/core/input_file.h"
#include "platform/files/output_file.h"
#include "regress/support/file_checks.h"

namespace angara {
namespace {

namespace fs = std::filesystem;
using test::file_text;
using test::refusal;

// The names in `dir` that end in ".partial": temporaries left behind.
int temporaries(const fs::path& dir) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    count += entry.path().string().ends_with(".partial") ? 1 : 0;
  }
  return count;
}

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("output_file_test_" + std::to_string(getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "victim.txt") << "keep\n";
  }
  void TearDown() override {
    fs::permissions(m_dir, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(m_dir);
  }
  fs::path m_dir;
};

// A link planted where the old writer put its temporary (<target>.partial) is not written
// through: the temporary has a name nobody can guess and is created with O_EXCL.
TEST_F(OutputFileTest, ALinkAtTheOldTemporaryNameIsNotFollowed) {
  fs::create_symlink(m_dir / "victim.txt", m_dir / "r.json.partial");
  write_file("results\n", m_dir / "r.json", "--out");
  EXPECT_EQ(file_text(m_dir / "victim.txt"), "keep\n");
  EXPECT_EQ(file_text(m_dir / "r.json"), "results\n");
  EXPECT_TRUE(fs::is_symlink(m_dir / "r.json.partial"));  // not ours, left alone
}

// The same for a directory or a FIFO standing at that name: they no longer stop the write.
TEST_F(OutputFileTest, ADirectoryOrFifoAtTheOldTemporaryNameDoesNotMatter) {
  fs::create_directories(m_dir / "r.json.partial");
  ASSERT_EQ(mkfifo((m_dir / "t.vcd.partial").c_str(), 0600), 0);
  write_file("a\n", m_dir / "r.json", "--out");
  write_file("b\n", m_dir / "t.vcd", "trace.file");
  EXPECT_EQ(file_text(m_dir / "r.json"), "a\n");
  EXPECT_EQ(file_text(m_dir / "t.vcd"), "b\n");
  EXPECT_TRUE(fs::is_directory(m_dir / "r.json.partial"));
  EXPECT_TRUE(fs::is_fifo(m_dir / "t.vcd.partial"));
}

// A link at the target itself is replaced by the file, the file it pointed to untouched.
TEST_F(OutputFileTest, ALinkAtTheTargetIsReplacedNotWrittenThrough) {
  fs::create_symlink(m_dir / "victim.txt", m_dir / "r.json");
  write_file("results\n", m_dir / "r.json", "--out");
  EXPECT_EQ(file_text(m_dir / "victim.txt"), "keep\n");
  EXPECT_FALSE(fs::is_symlink(m_dir / "r.json"));
  EXPECT_EQ(file_text(m_dir / "r.json"), "results\n");
}

// A file the run read is never a target, whatever the spelling: another path, a hard link, a
// symlink to it.
TEST_F(OutputFileTest, AnInputOfTheRunIsNotATarget) {
  std::ofstream(m_dir / "c.toml") << "[topology]\n";
  read_input_file(m_dir / "c.toml", "", "config file");
  fs::create_hard_link(m_dir / "c.toml", m_dir / "hard.toml");
  fs::create_symlink(m_dir / "c.toml", m_dir / "soft.toml");
  fs::create_directories(m_dir / "adir");
  for (const fs::path& same :
       {m_dir / "c.toml", m_dir / "adir/../c.toml", m_dir / "hard.toml", m_dir / "soft.toml"}) {
    const std::string why = refusal([&] { check_output_path("--out", same); });
    EXPECT_NE(why.find("flag '--out'"), std::string::npos) << same << ": " << why;
    EXPECT_NE(why.find("is the config file this run reads"), std::string::npos) << why;
    EXPECT_NE(refusal([&] { write_file("x", same, "trace.file"); }), "") << same;
  }
  EXPECT_EQ(file_text(m_dir / "c.toml"), "[topology]\n");
  EXPECT_EQ(temporaries(m_dir), 0);
}

// A file read back from the tool's own output is not an input: it may be rewritten.
TEST_F(OutputFileTest, AFileReadBackIsNotAnInput) {
  std::ofstream(m_dir / "manifest.json") << "{}\n";
  EXPECT_EQ(read_regular_file(m_dir / "manifest.json"), "{}\n");
  write_file("{\"points\": []}\n", m_dir / "manifest.json", "--out");
  EXPECT_EQ(file_text(m_dir / "manifest.json"), "{\"points\": []}\n");
}

// A directory that takes no new file is found by the dry pass, before any run: /sys refuses
// even root, a directory without write permission anyone else.
TEST_F(OutputFileTest, ADirectoryThatTakesNoFileIsFoundBeforeTheRun) {
  fs::path closed = "/sys";
  if (geteuid() != 0) {
    closed = m_dir / "closed";
    fs::create_directories(closed);
    fs::permissions(closed, fs::perms::owner_read | fs::perms::owner_exec);
  }
  ASSERT_NE(access(closed.c_str(), F_OK), -1);
  const std::string why = refusal([&] { check_output_path("--out", closed / "r.json"); });
  EXPECT_NE(why.find("cannot create a file in " + closed.string()), std::string::npos) << why;
  const std::string deeper = refusal([&] { check_output_path("--out", closed / "new/r.json"); });
  EXPECT_NE(deeper.find("cannot make directories in " + closed.string()), std::string::npos)
      << deeper;
  EXPECT_FALSE(fs::exists(closed / "r.json"));
}

// A name too long to take its temporary beside it is refused before anything is written.
TEST_F(OutputFileTest, ANameTooLongIsFoundBeforeTheRun) {
  const fs::path longest = m_dir / (std::string(240 - 5, 'a') + ".json");
  EXPECT_EQ(refusal([&] { check_output_path("--out", longest); }), "");
  const fs::path too_long = m_dir / (std::string(241 - 5, 'a') + ".json");
  const std::string why = refusal([&] { check_output_path("--out", too_long); });
  EXPECT_NE(why.find("at most 240 bytes"), std::string::npos) << why;
  const fs::path dir_too_long = m_dir / std::string(256, 'd') / "r.json";
  EXPECT_NE(refusal([&] { check_output_path("--out", dir_too_long); }).find("longer than 255"),
            std::string::npos);
  EXPECT_EQ(temporaries(m_dir), 0);
}

// A write that fails half way (here: the file size limit, as a full disk would) leaves neither
// the target nor a temporary, nor the other files of the group, and names the key.
TEST_F(OutputFileTest, AFailedWriteLeavesNothing) {
  std::ofstream(m_dir / "r.json") << "old\n";
  const std::string big(1 << 16, 'x'), small = "a\n";
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  rlimit limit = old;
  limit.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  const std::string why = refusal([&] {
    write_files({{"--out (its .csv file, per size)", m_dir / "r.csv", &small},
                 {"--out", m_dir / "r.json", &big}});
  });
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  EXPECT_NE(why.find("flag '--out'"), std::string::npos) << why;
  EXPECT_NE(why.find("writing its temporary"), std::string::npos) << why;
  EXPECT_EQ(file_text(m_dir / "r.json"), "old\n");
  EXPECT_FALSE(fs::exists(m_dir / "r.csv"));
  EXPECT_EQ(temporaries(m_dir), 0);
}

// A new file gets the mode open(0666) would give it, not mkstemp's 0600.
TEST_F(OutputFileTest, ANewFileHasTheUsualMode) {
  const mode_t mask = umask(022);
  write_file("x\n", m_dir / "r.json", "--out");
  umask(mask);
  struct stat s {};
  ASSERT_EQ(stat((m_dir / "r.json").c_str(), &s), 0);
  EXPECT_EQ(s.st_mode & 0777, 0644U);
}

}  // namespace
}  // namespace angara
