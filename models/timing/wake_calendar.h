#pragma once
// WakeCalendar: the wake-ups of a loosely-timed machine's modules (CPUs, PCIe adapters, LT
// endpoints, the PEGroup timers) in one SystemC method. A module asks to be woken at a cycle; the
// calendar keeps every pending wake-up as a small entry in a bucket per cycle (a heap holds those
// beyond the buckets' window) and, at each cycle, wakes the modules due then. A wake-up thus costs
// an entry appended and a call, where an sc_event per module costs a timed notification (an
// object on SystemC's heap, compared through a pointer), a trigger and a method activation.
//
// Modules due at one cycle wake in a shuffled order, fixed by the sequence of wake-ups asked for.
// Ask order would be unfair: a module woken first asks first for its next cycle and goes first
// again, and in LT whoever runs first books the links first, which slows a collective's stragglers
// more the larger the machine. SystemC's own order of same-time processes is as arbitrary, but not
// the same.

#include <systemc>

#include <cstdint>
#include <vector>

#include "models/core/ids.h"
#include "models/core/rng.h"
#include "models/timing/fabric_clock.h"

namespace angara {

class WakeCalendar : public sc_core::sc_module {
 public:
  // A module the calendar wakes. Like an sc_event, it has at most one pending wake-up: asking
  // for one later than the pending one does nothing, an earlier one replaces it.
  class Sleeper {
   public:
    // Called at the cycle asked for; the sleeper asks again for any later wake-up it needs.
    virtual void woken() = 0;

   protected:
    virtual ~Sleeper() = default;

   private:
    friend class WakeCalendar;
    Cycle m_due = kNever;        // the pending wake-up
    std::uint64_t m_ticket = 0;  // its entry's; older entries of this sleeper are void
  };

  WakeCalendar(const sc_core::sc_module_name& name, const FabricClock& clock);

  // Wakes `sleeper` at cycle `at`, or in this cycle if `at` has passed: after the sleepers
  // already due now (as a zero-time notification runs after the current delta's processes).
  void wake_at(Sleeper& sleeper, Cycle at);
  void wake_now(Sleeper& sleeper) { wake_at(sleeper, 0); }

 private:
  struct Entry {
    Cycle at;
    std::uint64_t ticket;  // tells the sleeper's latest entry from those it replaced
    Sleeper* sleeper;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : ticket > o.ticket; }
  };
  // Cycles ahead of the last dispatch kept in buckets (a power of two, a multiple of 64). Nearly
  // every wake-up is less than 1024 cycles ahead, and a wider window spreads the buckets, which
  // the calendar writes round the window, over more memory than the caches keep.
  static constexpr Cycle kWindow = 1024;
  // A bucket holding more entries than this after its cycle gives its memory back.
  static constexpr std::size_t kKeptEntries = 1024;

  std::vector<Entry>& bucket(Cycle at) { return m_buckets[at & (kWindow - 1)]; }
  void add(const Entry& entry);
  void dispatch();  // SC_METHOD: wakes everything due now
  void arm(Cycle at);
  void shuffle(std::vector<Entry>& entries, std::size_t begin, std::size_t end);
  Cycle next_due() const;  // the first cycle after m_base with an entry; kNever if none

  const FabricClock& m_clock;
  // Entries for cycles m_base .. m_base + kWindow - 1, by cycle; a bit per bucket
  // says whether it has any. Later entries wait in m_later, a min-heap by (at, ticket), and move
  // to their buckets, in that order, as the window reaches them.
  std::vector<std::vector<Entry>> m_buckets;
  std::vector<std::uint64_t> m_occupied;
  std::vector<Entry> m_later;
  Cycle m_base = 0;  // the cycle of the last (or running) dispatch
  std::uint64_t m_tickets = 0;
  Cycle m_armed = 0;           // the cycle m_due is notified for (0: the initial dispatch)
  bool m_dispatching = false;  // entries asked for now join the running dispatch
  Rng m_order{0, 0};           // shuffles the sleepers due at one cycle
  sc_core::sc_event m_due;
};

// The wake-up of a module that runs in either timing mode: on the machine's WakeCalendar once
// given one (LT), else by its own sc_event, which the module's method is sensitive to (AT keeps
// SystemC's order of same-time processes, which its golden waveforms record).
class Alarm {
 public:
  Alarm(WakeCalendar::Sleeper& sleeper, const FabricClock& clock)
      : m_sleeper(sleeper), m_clock(clock) {}

  sc_core::sc_event& event() { return m_event; }
  void use(WakeCalendar& calendar) { m_calendar = &calendar; }
  // Wakes the module at cycle `at` (now, if it has passed); an earlier pending wake-up stays.
  void at(Cycle cycle) {
    if (m_calendar != nullptr) {
      m_calendar->wake_at(m_sleeper, cycle);
    } else {
      m_event.notify(m_clock.until(std::max(cycle, m_clock.now())));
    }
  }

 private:
  WakeCalendar::Sleeper& m_sleeper;
  const FabricClock& m_clock;
  WakeCalendar* m_calendar = nullptr;
  sc_core::sc_event m_event;
};

}  // namespace angara
