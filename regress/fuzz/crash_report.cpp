#include "regress/fuzz/crash_report.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define ANGARA_FUZZ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANGARA_FUZZ_SANITIZED 1
#endif
#endif
#ifdef ANGARA_FUZZ_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

namespace angara::fuzz {
namespace {

// Written before the mutant runs and only read by the handlers: they may use write() alone.
std::string g_report;

void say(const char* text, std::size_t size) {
  while (size > 0) {
    const ssize_t done = write(STDERR_FILENO, text, size);
    if (done <= 0) return;
    text += done;
    size -= static_cast<std::size_t>(done);
  }
}

void say_report(const char* what) {
  say(what, std::strlen(what));
  say(g_report.data(), g_report.size());
}

void on_signal(int signal) {
  say_report(signal == SIGALRM ? "\nconfig_fuzz: HANG: the mutant below passed its time limit\n"
                               : "\nconfig_fuzz: CRASH: a fatal signal on the mutant below\n");
  ::signal(signal, SIG_DFL);
  raise(signal);
}

#ifdef ANGARA_FUZZ_SANITIZED
void on_sanitizer_death() {
  say_report("\nconfig_fuzz: SANITIZER report on the mutant below\n");
}
#endif

}  // namespace

void install_crash_report() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // A sanitizer reports memory faults itself, with the stack, then calls the death callback.
#ifdef ANGARA_FUZZ_SANITIZED
  __sanitizer_set_death_callback(on_sanitizer_death);
  for (int signal : {SIGABRT, SIGALRM}) sigaction(signal, &action, nullptr);
#else
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) {
    sigaction(signal, &action, nullptr);
  }
#endif
}

void begin_mutant(std::string report, unsigned seconds) {
  g_report = std::move(report);
  alarm(seconds);
}

void end_mutant() {
  alarm(0);
}

}  // namespace angara::fuzz
