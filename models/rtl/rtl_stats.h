#pragma once
// What the RTL blocks' transactors compared in a run, over all nodes (no SystemC here, so that
// results can carry it).

#include <cstdint>

namespace angara {

struct RtlReducerStats {
  std::uint64_t cycles = 0;      // RTL cycles clocked and checked
  std::uint64_t heads = 0;       // contributions whose head handshake was checked
  std::uint64_t results = 0;     // hand-offs checked (ids, count, issued count)
  std::uint64_t data_words = 0;  // 64-bit result words checked
};

}  // namespace angara
