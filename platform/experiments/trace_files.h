#pragma once
// The files a traced run (AT, [trace] nodes given) writes: the VCD (trace.file), a GTKWave save
// file beside it that shows every signal (<stem>.gtkw) and the translate filter that names the
// VCUp/VCDown stage codes (<stem>.stages.txt): `gtkwave trace.gtkw` in their directory. With the
// RTL Reducer in, for each traced node also its own waveform (<stem>.rtl_reducer_<x>_<y>.vcd)
// and the replay file of its ports (<stem>.rtl_reducer_<x>_<y>.replay; docs/RTL.md).

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "models/core/model_error.h"
#include "platform/config/config.h"
#include "platform/machine/system.h"

namespace angara {

// Each file written, with the config key it comes from (for the output path checks).
std::vector<std::pair<std::string, std::filesystem::path>> trace_outputs(const Config& config);

// Writes them from `system`'s tracer and its RTL blocks' recordings.
void write_trace_files(const System& system, const TraceParams& trace);

// Throws `failure` again (a SharedModelError as one) with the paths of the waveforms written up to
// it added to its message.
[[noreturn]] void rethrow_with_trace(const ModelError& failure, const System& system,
                                     const TraceParams& trace);

// Runs `run` (which returns the run's last cycle), then writes the waveform if `system` traces;
// and also when the model fails inside it: the cycles up to the check that stopped the run are
// what one debugs it with, so they are written before the failure goes on.
template <typename Run>
Cycle run_traced(const System& system, const TraceParams& trace, Run&& run) {
  if (!system.tracing()) return run();
  Cycle end = 0;
  try {
    end = run();
  } catch (const ModelError& failure) {
    write_trace_files(system, trace);
    rethrow_with_trace(failure, system, trace);
  } catch (const sc_core::sc_report& failure) {  // a ModelError thrown inside a SystemC process
    write_trace_files(system, trace);
    rethrow_with_trace(ModelError(failure.what()), system, trace);
  }
  write_trace_files(system, trace);
  return end;
}

}  // namespace angara
