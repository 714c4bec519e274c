#pragma once
// The trace points of one router (tracing on for its node, AT): its links, the input buffers of
// every port (point-to-point VCs, VCUp and VCDown; the local port's VCUp is the PEGroup FIFO) and
// the credits of every output VC, and the hooks AtSwitch calls to drive them. A signal index of
// -1 is not traced (its block was not asked for).

#include <array>
#include <string>
#include <vector>

#include "models/core/packet.h"
#include "models/router/issue.h"
#include "models/timing/tracer.h"

namespace angara {

// Stages of a packet in VCUp/VCDown, the value of their `stage` signals.
enum class VcStage : std::uint8_t {
  Idle = 0,
  Storing = 1,   // head in, waiting for the tail: the whole packet is stored first
  Table = 2,     // reading the tree's routing-table row
  Analysis = 3,  // analysing the head flit
  Issuing = 4,   // copies leaving, one at a time
};
// Their names, by value, for a waveform viewer.
inline constexpr std::array<const char*, 5> kVcStageNames{"idle", "storing", "table", "analysis",
                                                          "issuing"};

struct RouterTrace {
  struct Vc {
    Tracer::Signal occupancy = -1;  // flits in the buffer
    Tracer::Signal stage = -1;      // VCUp/VCDown: VcStage of the packet last changed
    Tracer::Signal packet = -1;     // VCUp/VCDown: its id (trace_id), 0 when none
  };
  Tracer* tracer = nullptr;
  std::vector<Tracer::Signal> link_valid, link_packet;  // [port]: a packet on the output
  std::vector<Tracer::Signal> credits;  // [port * VCs + vc]: free flits in the buffer downstream
  std::vector<Vc> inputs;               // [port * VCs + vc]: the input buffers

  // A packet announced in input buffer `input` ([port * VCs + vc]), issuing from `ready`;
  // `routed`: VCUp/VCDown read its table row (`table_cycles`) and analyse its head first.
  void arrival(std::size_t input, const Packet& packet, Cycle ready, bool routed,
               Cycle table_cycles);
  // A grant from input buffer `input` to output VC `output` (both [port * VCs + vc]).
  void grant(const Grant& grant, std::size_t output, std::size_t input);
  // `flits` credits more (fewer: negative) for output VC `output` from cycle `at`.
  void credits_change(std::size_t output, std::int64_t flits, Cycle at);

 private:
  // The signals of input buffer `input` if it is a traced collective VC, else null.
  const Vc* traced_vc(std::size_t input) const;
};

// A short id for a packet in waveforms: its source node and the low bits of its header's high
// word (a sequence number, a message tag or a landing offset).
inline std::uint64_t trace_id(const Packet& p) {
  return (std::uint64_t{p.header.src} << 16) | (p.header.high_word & 0xFFFF) | (1ULL << 31);
}

}  // namespace angara
