#pragma once
// What the fuzzer is working on, said on stderr if the process dies on it: a crash (a signal), a
// sanitizer's report, or a mutant that takes longer than its time limit (a hang), so that a
// failure always names the mutant that caused it and how to make it again.

#include <string>

namespace angara::fuzz {

// Installs the handlers: fatal signals, SIGALRM for the time limit and, in a sanitized build,
// the sanitizers' death callback (their own reports of memory errors stay as they are).
void install_crash_report();

// `report` is said if the process dies before end_mutant(); the mutant gets `seconds`.
void begin_mutant(std::string report, unsigned seconds);
void end_mutant();

}  // namespace angara::fuzz
