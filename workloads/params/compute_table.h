#pragma once
// compute.table: a CSV file of measured compute times per block size, one `work_size,time_ns`
// row per line (an optional header `work_size,time_ns`, blank lines and `#` comments allowed).
// Every mistake is a ConfigError naming compute.table, the file and line, and the rule.

#include <string>
#include <vector>

#include "workloads/params/compute_model.h"

namespace angara {

// Rows of `text`, read from `origin` (for messages): at least two, sizes strictly increasing.
std::vector<TablePoint> parse_compute_table(const std::string& text, const std::string& origin);

// The same from the file at `path` (relative to the working directory).
std::vector<TablePoint> load_compute_table(const std::string& path);

}  // namespace angara
