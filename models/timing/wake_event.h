#pragma once
// The event an AT module's one process waits on. For the project's test that AT does not depend
// on the order SystemC runs same-time processes in (ANGARA_TEST_JITTER_SEED set), a random half
// of the wake-ups reach the module one delta cycle later, at the same time, through a relay:
// that reorders it among that time's processes, and adds wake-ups a module must take as no-ops.

#include <cstdint>
#include <memory>
#include <systemc>

namespace angara {

class WakeEvent {
 public:
  // Call during elaboration (the relay is a process of its own).
  WakeEvent();
  ~WakeEvent();

  const sc_core::sc_event& event() const { return m_event; }  // to be sensitive to
  void notify(const sc_core::sc_time& delay) {
    if (m_jitter == 0 || !coin()) {
      m_event.notify(delay);
    } else {
      m_relay.notify(delay);
    }
  }

 private:
  class Relay;
  bool coin();

  sc_core::sc_event m_event;
  sc_core::sc_event m_relay;
  std::uint64_t m_jitter = 0;              // the RNG's state; 0: off
  std::unique_ptr<Relay> m_relay_process;  // with the test's jitter only
};

}  // namespace angara
