#pragma once
// A file in the temporary directory for the current test, removed with the object. Its name
// carries the test's name and the process id, so tests running at once (ctest -j) never share
// one.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace angara::test {

class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    m_path = std::filesystem::temp_directory_path() /
             ("angara_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
              std::to_string(getpid()));
    write(contents);
  }
  ~TempFile() { std::filesystem::remove(m_path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write(const std::string& contents) const { std::ofstream(m_path) << contents; }
  std::string path() const { return m_path.string(); }

 private:
  std::filesystem::path m_path;
};

}  // namespace angara::test
