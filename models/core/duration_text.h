#pragma once
// A wall-clock duration for a person: "m:ss", or "h:mm:ss" from an hour on.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace angara {

inline std::string duration_text(double seconds) {
  const auto s = std::llround(std::max(0.0, seconds));
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace angara
