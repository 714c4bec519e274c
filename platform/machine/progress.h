#pragma once
// Where a long run reports how far it has got.

#include <functional>
#include <string>

namespace angara {

// Progress lines for a person watching a long run (stderr in the CLI).
using ProgressSink = std::function<void(const std::string&)>;

}  // namespace angara
