#pragma once
// Which angara-tlm this is: the version (project() in CMakeLists.txt) and the git revision the
// build was made from, for --version and the results files.

#include <string_view>

namespace angara {

// "0.9.0"
std::string_view version();
// The commit built, abbreviated, with "-dirty" if the tree had changes; "unknown" outside git.
std::string_view git_revision();

}  // namespace angara
