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

struct RtlVcUpStats {
  std::uint64_t cycles = 0;   // RTL cycles clocked and checked, over all VCUp buffers
  std::uint64_t packets = 0;  // packets whose head and tail beats went in
  std::uint64_t queued = 0;   // of those, came in behind another packet still in the buffer
  std::uint64_t copies = 0;   // copy grants checked against the RTL's request
  std::uint64_t frees = 0;    // packets whose space the RTL freed in the model's cycle
};

}  // namespace angara
