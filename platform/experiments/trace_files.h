#pragma once
// The files a traced run (AT, [trace] nodes given) writes: the VCD (trace.file), a GTKWave save
// file beside it that shows every signal (<stem>.gtkw) and the translate filter that names the
// VCUp/VCDown stage codes (<stem>.stages.txt): `gtkwave trace.gtkw` in their directory.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "platform/config/config.h"
#include "platform/machine/system.h"

namespace angara {

// Each file written, with the config key it comes from (for the output path checks).
std::vector<std::pair<std::string, std::filesystem::path>> trace_outputs(const TraceParams& trace);

// Writes them from `system`'s tracer.
void write_trace_files(const System& system, const TraceParams& trace);

}  // namespace angara
