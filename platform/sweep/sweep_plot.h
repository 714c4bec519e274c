#pragma once
// Line plots of a sweep's table, drawn by gnuplot.

#include <filesystem>
#include <string>

#include "platform/sweep/sweep_collect.h"

namespace angara {

struct PlotRequest {
  std::string x, y, series;  // column names; series may be empty
  bool log_x = false;
  std::filesystem::path output;  // .png, .svg or .pdf
  bool log_y = false;
  std::string title;
  bool saturated = true;  // false: saturated points are left out of the lines
};

// Draws y against x, one line per series value, from the points whose status is ok, saturated
// points as open circles (or left out), axes labelled with their units. A swept axis other than x
// and series whose points differ is refused (the lines would zig-zag between them). All three files
// are checked first (platform/files/output_file.h); writes the gnuplot data and script beside the
// output and runs `gnuplot -c SCRIPT DATA FIGURE`, FIGURE in a fresh private directory, then
// writes the figure in its place like any other file: the paths reach gnuplot as arguments, and
// every other text in the script is a quoted string, so no file name, title or legend is ever
// read as a gnuplot command.
void plot(const SweepTable& table, const PlotRequest& request);

// `text` as a gnuplot single-quoted string: a quote doubled, control characters (a newline would
// end the command) made spaces. Backquotes and macros are not expanded inside single quotes.
std::string gnuplot_quoted(const std::string& text);

}  // namespace angara
