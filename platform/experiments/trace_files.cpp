#include "platform/experiments/trace_files.h"

#include <fmt/format.h>

#include "platform/files/output_file.h"
#include "platform/waveform/gtkw.h"
#include "platform/waveform/vcd.h"

namespace angara {
namespace {

std::filesystem::path beside(const std::string& vcd, const char* extension) {
  return std::filesystem::path(vcd).replace_extension(extension);
}

}  // namespace

std::vector<std::pair<std::string, std::filesystem::path>> trace_outputs(const TraceParams& trace) {
  return {{"trace.file", trace.file},
          {"trace.file (its .gtkw)", beside(trace.file, ".gtkw")},
          {"trace.file (its .stages.txt)", beside(trace.file, ".stages.txt")}};
}

void write_trace_files(const System& system, const TraceParams& trace) {
  const std::string vcd = system.trace_vcd();
  std::vector<std::pair<int, std::string>> stages;
  for (std::size_t v = 0; v < kVcStageNames.size(); ++v) {
    stages.emplace_back(static_cast<int>(v), kVcStageNames[v]);
  }
  const auto outputs = trace_outputs(trace);
  // Names without directories: the viewer opens them from the directory they are in.
  const std::string gtkw = gtkw_save_file(parse_vcd(vcd), outputs[0].second.filename().string(),
                                          "stage", outputs[2].second.filename().string());
  write_file(vcd, outputs[0].second, outputs[0].first);
  write_file(gtkw, outputs[1].second, outputs[1].first);
  write_file(translate_filter(stages), outputs[2].second, outputs[2].first);
}

void rethrow_with_trace(const ModelError& failure, const TraceParams& trace) {
  const std::string message =
      fmt::format("{}\nthe waveform up to it: {}", failure.what(), trace.file);
  if (dynamic_cast<const SharedModelError*>(&failure) != nullptr) throw SharedModelError(message);
  throw ModelError(message);
}

}  // namespace angara
