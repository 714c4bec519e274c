#include "platform/version/version.h"

namespace angara {

// Written at build time by git_revision.cmake (git_revision.cpp in the build directory).
extern const char* const kGitRevision;

std::string_view version() {
  return ANGARA_VERSION;
}

std::string_view git_revision() {
  return kGitRevision;
}

}  // namespace angara
