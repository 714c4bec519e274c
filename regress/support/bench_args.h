#pragma once
// The command line of a benchmark without options of its own: `--help` says what it measures,
// anything else is an error.

#include <fmt/format.h>

#include <optional>
#include <string_view>

namespace angara::test {

// std::nullopt: run the benchmark; else main()'s exit code (0 after --help, 1 for an argument).
inline std::optional<int> no_options(int argc, char** argv, std::string_view name,
                                     std::string_view about) {
  if (argc < 2) return std::nullopt;
  const std::string_view arg = argv[1];
  if (arg == "--help" || arg == "-h") {
    fmt::print("{}: {}\n", name, about);
    return 0;
  }
  fmt::print(stderr, "{}: unknown option {} (it takes none; see --help)\n", name, arg);
  return 1;
}

}  // namespace angara::test
