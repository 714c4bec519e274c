#include "models/timing/wake_calendar.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace angara {

WakeCalendar::WakeCalendar(const sc_core::sc_module_name& name, const FabricClock& clock)
    : sc_core::sc_module(name), m_clock(clock), m_buckets(kWindow), m_occupied(kWindow / 64) {
  SC_HAS_PROCESS(WakeCalendar);
  SC_METHOD(dispatch);  // also runs at time 0: wake-ups asked for during elaboration
  sensitive << m_due;
}

void WakeCalendar::wake_at(Sleeper& sleeper, Cycle at) {
  at = std::max(at, m_dispatching ? m_base : m_clock.now());  // a past cycle stands for now
  if (at >= sleeper.m_due) return;
  sleeper.m_due = at;
  sleeper.m_ticket = m_tickets++;
  add({at, sleeper.m_ticket, &sleeper});
  if (!m_dispatching && at < m_armed) arm(at);
}

void WakeCalendar::add(const Entry& entry) {
  if (entry.at >= m_base + kWindow) {
    m_later.push_back(entry);
    std::push_heap(m_later.begin(), m_later.end(), std::greater<>{});
    return;
  }
  bucket(entry.at).push_back(entry);
  const Cycle bit = entry.at & (kWindow - 1);
  m_occupied[bit / 64] |= std::uint64_t{1} << (bit % 64);
}

void WakeCalendar::arm(Cycle at) {
  m_armed = at;
  m_due.notify(m_clock.until(at));
}

// Every bucket with entries is dispatched at its cycle (the event is armed for the earliest), so
// the buckets in the window never mix two cycles.
void WakeCalendar::dispatch() {
  m_base = m_clock.now();
  while (!m_later.empty() && m_later.front().at < m_base + kWindow) {
    std::pop_heap(m_later.begin(), m_later.end(), std::greater<>{});
    add(m_later.back());
    m_later.pop_back();
  }
  m_dispatching = true;
  std::vector<Entry>& due = bucket(m_base);
  // In rounds, as SystemC's delta cycles: those due as the cycle starts, then those that asked for
  // it meanwhile. The bucket grows as they ask, so entries are copied out before each call.
  for (std::size_t begin = 0; begin < due.size();) {
    const std::size_t end = due.size();
    shuffle(due, begin, end);
    for (std::size_t i = begin; i < end; ++i) {
      // A later sleeper's state is read soon: its cache miss overlaps this wake-up.
      if (i + 2 < end) __builtin_prefetch(due[i + 2].sleeper);
      const Entry entry = due[i];
      Sleeper& sleeper = *entry.sleeper;
      if (sleeper.m_ticket != entry.ticket) continue;  // replaced by an earlier one, or woken
      sleeper.m_due = kNever;
      sleeper.woken();
    }
    begin = end;
  }
  m_dispatching = false;
  if (due.capacity() > kKeptEntries) {
    std::vector<Entry>().swap(due);
  } else {
    due.clear();
  }
  const Cycle bit = m_base & (kWindow - 1);
  m_occupied[bit / 64] &= ~(std::uint64_t{1} << (bit % 64));
  m_armed = kNever;
  if (const Cycle next = next_due(); next != kNever) arm(next);
}

void WakeCalendar::shuffle(std::vector<Entry>& entries, std::size_t begin, std::size_t end) {
  for (std::size_t n = end - begin; n > 1; --n) {
    std::swap(entries[begin + n - 1], entries[begin + m_order.uniform(n)]);
  }
}

Cycle WakeCalendar::next_due() const {
  const Cycle later = m_later.empty() ? kNever : m_later.front().at;
  // The first marked bucket after now's, going once round the window.
  for (Cycle from = m_base + 1; from < m_base + kWindow && from < later;) {
    const Cycle bit = from & (kWindow - 1);
    const std::uint64_t word = m_occupied[bit / 64] >> (bit % 64);
    if (word != 0) return std::min(later, from + std::countr_zero(word));
    from += 64 - bit % 64;
  }
  return later;
}

}  // namespace angara
