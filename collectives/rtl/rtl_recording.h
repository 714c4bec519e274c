#pragma once
// What a transactor records of its RTL block on a traced node (trace.nodes, with the block in
// trace.blocks), to debug the block with (docs/RTL.md): Verilator's waveform of every signal in
// the block, on the model's time base, and the block's ports cycle by cycle as a replay file.

#include <filesystem>
#include <memory>
#include <string>

namespace angara {

// Verilator's trace of a verilated block, written to a VCD file as the simulation goes; made by
// the block's binding (verilated_waveform.h).
class RtlWaveform {
 public:
  virtual ~RtlWaveform() = default;
  virtual void flush() = 0;  // into the file, what it still holds
};

// What a failing check's message adds on a node that records nothing.
inline constexpr const char* kRecordingHint =
    " (with this node among trace.nodes the run records the RTL's waveform and a replay file of "
    "its ports up to here)";

struct RtlRecording {
  std::filesystem::path waveform;  // where the block's VCD goes as the run goes
  // The VCD being written from the start of simulation; null before, or for a block verilated
  // without tracing. The transactor owns it: SystemC keeps a trace file registered for as long
  // as the simulation context lives.
  RtlWaveform* vcd = nullptr;
  std::string replay;  // the replay file's text
};

}  // namespace angara
