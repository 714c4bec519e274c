#include "platform/experiments/trace_files.h"

#include <fmt/format.h>

#include <iterator>
#include <tuple>

#include "models/core/input_file.h"
#include "platform/files/output_file.h"
#include "platform/machine/trace_signals.h"
#include "platform/waveform/gtkw.h"
#include "platform/waveform/vcd.h"

namespace angara {
namespace {

std::filesystem::path beside(const std::string& vcd, const std::string& extension) {
  return std::filesystem::path(vcd).replace_extension(extension);
}

// The files of the RTL block called `name` (rtl_reducer_<x>_<y>..., rtl_vcup_...).
std::filesystem::path rtl_waveform(const TraceParams& trace, const std::string& name) {
  return beside(trace.file, "." + name + ".vcd");
}
std::filesystem::path rtl_replay(const TraceParams& trace, const std::string& name) {
  return beside(trace.file, "." + name + ".replay");
}
std::string waveform_key(const std::string& name) {
  return "trace.file (the RTL waveform " + name + ")";
}
std::string replay_key(const std::string& name) {
  return "trace.file (the RTL replay file " + name + ")";
}

}  // namespace

std::vector<std::pair<std::string, std::filesystem::path>> trace_outputs(const Config& config) {
  const TraceParams& trace = config.trace;
  std::vector<std::pair<std::string, std::filesystem::path>> outputs{
      {"trace.file", trace.file},
      {"trace.file (its .gtkw)", beside(trace.file, ".gtkw")},
      {"trace.file (its .stages.txt)", beside(trace.file, ".stages.txt")}};
  for (const auto& node : trace.nodes) {
    for (const auto& [impl, block, module] :
         {std::tuple{config.rtl.reducer, "reducer", "rtl_reducer"},
          std::tuple{config.rtl.vcup, "vcup", "rtl_vcup"}}) {
      if (impl == BlockImpl::Model || !trace.traces(block)) continue;
      const std::string name = module_name(module, node);
      outputs.emplace_back(waveform_key(name), rtl_waveform(trace, name));
      outputs.emplace_back(replay_key(name), rtl_replay(trace, name));
    }
  }
  return outputs;
}

void write_trace_files(const System& system, const TraceParams& trace) {
  const std::string vcd = system.trace_vcd();
  std::vector<std::pair<int, std::string>> stages;
  for (std::size_t v = 0; v < kVcStageNames.size(); ++v) {
    stages.emplace_back(static_cast<int>(v), kVcStageNames[v]);
  }
  const std::filesystem::path gtkw_file = beside(trace.file, ".gtkw");
  const std::filesystem::path stages_file = beside(trace.file, ".stages.txt");
  // Absolute paths: the viewer opens the save file from any directory.
  const std::string gtkw =
      gtkw_save_file(parse_vcd(vcd), std::filesystem::absolute(trace.file).string(), "stage",
                     std::filesystem::absolute(stages_file).string(),
                     std::filesystem::absolute(gtkw_file).string());
  write_file(vcd, trace.file, "trace.file");
  write_file(gtkw, gtkw_file, "trace.file (its .gtkw)");
  write_file(translate_filter(stages), stages_file, "trace.file (its .stages.txt)");
  for (const auto& [name, recording] : system.rtl_recordings()) {
    if (recording->vcd) {  // the run started: Verilator writes its waveform from then
      recording->vcd->flush();
      write_file(read_regular_file(recording->waveform), rtl_waveform(trace, name),
                 waveform_key(name));
    }
    if (!recording->replay.empty()) {
      write_file(recording->replay, rtl_replay(trace, name), replay_key(name));
    }
  }
}

void rethrow_with_trace(const ModelError& failure, const System& system, const TraceParams& trace) {
  std::string message = fmt::format("{}\nthe waveform up to it: {}", failure.what(), trace.file);
  for (const auto& [name, recording] : system.rtl_recordings()) {
    fmt::format_to(std::back_inserter(message), "\nthe RTL waveform of {}: {}", name,
                   rtl_waveform(trace, name).string());
    if (!recording->replay.empty()) {
      fmt::format_to(std::back_inserter(message), ", its replay file: {}",
                     rtl_replay(trace, name).string());
    }
  }
  if (dynamic_cast<const SharedModelError*>(&failure) != nullptr) throw SharedModelError(message);
  throw ModelError(message);
}

}  // namespace angara
