// sc_spawn is declared only with SC_INCLUDE_DYNAMIC_PROCESSES, before SystemC's header.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/timing/wake_event.h"

#include <cstdlib>

namespace angara {
namespace {

// The test's seed, or 0 (off); each event's stream starts from it and the event's number.
std::uint64_t next_stream() {
  static const std::uint64_t seed = [] {
    const char* text = std::getenv("ANGARA_TEST_JITTER_SEED");
    return text ? std::strtoull(text, nullptr, 10) : 0;
  }();
  static std::uint64_t events = 0;
  return seed == 0 ? 0 : seed * 0x9E3779B97F4A7C15ULL + ++events;
}

}  // namespace

WakeEvent::WakeEvent() : m_jitter(next_stream()) {
  if (m_jitter == 0) return;
  sc_core::sc_spawn_options options;
  options.spawn_method();
  options.set_sensitivity(&m_relay);
  options.dont_initialize();
  sc_core::sc_spawn([this] { m_event.notify(sc_core::SC_ZERO_TIME); },
                    sc_core::sc_gen_unique_name("wake_relay"), &options);
}

bool WakeEvent::coin() {
  m_jitter ^= m_jitter << 13;  // xorshift64
  m_jitter ^= m_jitter >> 7;
  m_jitter ^= m_jitter << 17;
  return (m_jitter & 1) != 0;
}

}  // namespace angara
