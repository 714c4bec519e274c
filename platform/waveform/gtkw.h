#pragma once
// A GTKWave save file for the VCD files the model writes: it opens the file with every signal on
// show, so that a waveform needs no clicking before it can be read.

#include <string>
#include <utility>
#include <vector>

#include "platform/waveform/vcd.h"

namespace angara {

// A GTKWave translate filter file: one "value name" line per code.
std::string translate_filter(const std::vector<std::pair<int, std::string>>& names);

// The save file `save_file` of `vcd`, written as `vcd_file`: its signals in declaration order,
// in decimal, each signal whose name ends in `.<suffix>` shown through the translate filter file
// `filter`. Given absolute paths it opens from any directory; naming itself ([savefile]), it lets
// GTKWave find the VCD beside it when both have moved.
std::string gtkw_save_file(const Vcd& vcd, const std::string& vcd_file, const std::string& suffix,
                           const std::string& filter, const std::string& save_file);

}  // namespace angara
