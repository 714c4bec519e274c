#pragma once
// A config a test expects refused: the ConfigError names the key, and its message says why.

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "models/core/config_error.h"

namespace angara::test {

// `call` throws a ConfigError for `key` whose message contains `says` (anything, if empty).
inline void expect_refused(const std::function<void()>& call, const std::string& key,
                           const std::string& says = "") {
  try {
    call();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), key) << e.what();
    if (!says.empty()) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    return;
  }
  ADD_FAILURE() << key << " was accepted";
}

}  // namespace angara::test
