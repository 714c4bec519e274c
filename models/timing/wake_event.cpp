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

// Passes a wake-up on one delta cycle later.
class WakeEvent::Relay : public sc_core::sc_module {
 public:
  Relay(const sc_core::sc_module_name& name, WakeEvent& wake)
      : sc_core::sc_module(name), m_wake(wake) {
    SC_HAS_PROCESS(Relay);
    SC_METHOD(pass);
    sensitive << m_wake.m_relay;
    dont_initialize();
  }

 private:
  void pass() { m_wake.m_event.notify(sc_core::SC_ZERO_TIME); }
  WakeEvent& m_wake;
};

WakeEvent::WakeEvent() : m_jitter(next_stream()) {
  if (m_jitter != 0) {
    m_relay_process = std::make_unique<Relay>(sc_core::sc_gen_unique_name("wake_relay"), *this);
  }
}

WakeEvent::~WakeEvent() = default;

bool WakeEvent::coin() {
  m_jitter ^= m_jitter << 13;  // xorshift64
  m_jitter ^= m_jitter >> 7;
  m_jitter ^= m_jitter << 17;
  return (m_jitter & 1) != 0;
}

}  // namespace angara
