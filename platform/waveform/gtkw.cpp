#include "platform/waveform/gtkw.h"

#include <fmt/format.h>

namespace angara {
namespace {

// GTKWave's display flags (its save-file format): right-justified, decimal, through a file filter.
constexpr unsigned kRightJustify = 0x20, kDecimal = 0x4, kFileTranslated = 0x2000;

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

std::string translate_filter(const std::vector<std::pair<int, std::string>>& names) {
  std::string text;
  for (const auto& [value, name] : names) text += fmt::format("{} {}\n", value, name);
  return text;
}

std::string gtkw_save_file(const Vcd& vcd, const std::string& vcd_file, const std::string& suffix,
                           const std::string& filter, const std::string& save_file) {
  std::string text =
      fmt::format("[dumpfile] \"{}\"\n[savefile] \"{}\"\n[timestart] 0\n", vcd_file, save_file);
  unsigned flags = 0;
  for (const VcdSignal& s : vcd.signals) {
    const bool translated = ends_with(s.name, "." + suffix);
    const unsigned want = kRightJustify | kDecimal | (translated ? kFileTranslated : 0u);
    if (want != flags) text += fmt::format("@{:x}\n", flags = want);
    if (translated) text += fmt::format("^1 {}\n", filter);
    text += s.width > 1 ? fmt::format("{}[{}:0]\n", s.name, s.width - 1) : s.name + "\n";
  }
  return text;
}

}  // namespace angara
