#include "models/timing/hold_calendar.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

namespace angara {

void HoldCalendar::forget(Cycle floor) {
  // A hold that ended by `floor` started by then: only that front part of the list can go, and
  // it is short (what a buffer held up to now), so one pass walks it and keeps the rest in order.
  const std::span<Hold> holds = m_holds.items();
  auto started = holds.begin();
  while (started != holds.end() && started->start <= floor && started->release > floor) ++started;
  if (started == holds.end() || started->start > floor) return;  // none ended
  auto kept = started;
  m_flits -= started->flits;
  for (++started; started != holds.end() && started->start <= floor; ++started) {
    if (started->release > floor) {
      *kept++ = *started;
    } else {
      m_flits -= started->flits;
    }
  }
  m_holds.erase(static_cast<std::size_t>(kept - holds.begin()),
                static_cast<std::size_t>(started - holds.begin()));
}

Cycle HoldCalendar::earliest_one(const BufferClaim& claim, int capacity) {
  // One sweep in time order over the holds (kept in order of start) and their releases. It
  // starts at the first hold that reaches past `claim.from`: none before it is still there then
  // (an open one, a packet further up the call that has not left yet, reaches to kNever).
  // Reaches forgotten holds leave behind are no later than the floor, which no claim is before.
  struct Release {
    Cycle at;
    int flits;
  };
  // Unordered, the earliest kept aside: a buffer holds a few packets at any one time (though
  // booked far ahead it has many), so a walk over them is cheaper than a heap.
  static thread_local std::vector<Release> releases;
  releases.clear();
  Cycle first_release = kNever;
  const std::span<const Hold> holds = m_holds.items();
  auto next = std::partition_point(holds.begin(), holds.end(),
                                   [&](const Hold& h) { return h.reach <= claim.from; });
  int held = 0;
  for (; next != holds.end() && next->start <= claim.from; ++next) {
    if (next->release <= claim.from) continue;
    held += next->flits;
    if (next->release == kNever) continue;
    releases.push_back({next->release, next->flits});
    first_release = std::min(first_release, next->release);
  }
  // A start needs room for `need` there and for `flits` at every change inside its span; only
  // `from` and the cycles at which room grows can be the first such start.
  Cycle start = capacity - held >= claim.need ? claim.from : kNever;
  for (;;) {
    const Cycle t = std::min(next != holds.end() ? next->start : kNever, first_release);
    if (t == kNever) return start;  // kNever: only a hold still open could make room
    if (start != kNever && t >= start + claim.span) return start;
    const bool grew = first_release == t;
    if (grew) {
      Cycle following = kNever;
      std::size_t kept = 0;
      for (const Release& r : releases) {
        if (r.at == t) {
          held -= r.flits;
        } else {
          following = std::min(following, r.at);
          releases[kept++] = r;
        }
      }
      releases.resize(kept);
      first_release = following;
    }
    for (; next != holds.end() && next->start == t; ++next) {
      if (next->release == kNever) continue;
      held += next->flits;
      releases.push_back({next->release, next->flits});
      first_release = std::min(first_release, next->release);
    }
    if (start != kNever) {
      if (capacity - held < claim.flits) start = kNever;
    } else if (grew && capacity - held >= claim.need) {
      start = t;
    }
  }
}

// The first start at which every lane fits where it would start, beside the lanes before it
// (not yet in the calendar): lane k needs the room of k more packets.
Cycle HoldCalendar::earliest_lanes(const BufferClaim& claim, int capacity) {
  Cycle start = claim.from;
  for (int k = 0; k < claim.lanes;) {
    const Cycle offset = static_cast<Cycle>(k) * claim.step;
    const BufferClaim lane{
        start + offset, claim.need + k * claim.flits, (k + 1) * claim.flits, claim.span, 1, 0};
    const Cycle at = earliest_one(lane, capacity);
    if (at == kNever) return kNever;
    if (at == lane.from) {
      ++k;
    } else {  // later: every lane from there, the first again
      start = at - offset;
      k = 0;
    }
  }
  return start;
}

// The lanes were opened one after another, so they are mostly the last holds, in order.
void HoldCalendar::close_lanes(const Opened& opened, Cycle release) {
  const std::size_t first = m_holds.size() - std::min<std::size_t>(m_holds.size(), opened.lanes);
  for (std::uint32_t k = opened.lanes; k-- > 0;) {
    const Cycle early = static_cast<Cycle>(opened.lanes - 1 - k) * opened.step;
    close_one(opened.start + k * static_cast<Cycle>(opened.step),
              release - std::min(release, early), std::min(first + k, m_holds.size() - 1));
  }
}

void HoldCalendar::insert_open(Cycle start, int flits) {
  const std::span<const Hold> holds = m_holds.items();
  const auto at = std::upper_bound(holds.begin(), holds.end(), start, starts_before);
  const auto index = static_cast<std::size_t>(at - holds.begin());
  m_holds.insert(index, {start, kNever, kNever, flits});
  // An open hold reaches to kNever, and so does every one after it.
  const std::span<Hold> moved = m_holds.items();
  for (std::size_t i = index + 1; i < moved.size() && moved[i].reach != kNever; ++i) {
    moved[i].reach = kNever;
  }
}

HoldCalendar::Hold& HoldCalendar::open_hold(Cycle start) {
  if (m_holds.size() == 0) throw std::logic_error("HoldCalendar::close: no hold is open");
  const std::span<Hold> holds = m_holds.items();
  const auto from = std::lower_bound(holds.begin(), holds.end(), start, started_before);
  const auto last =
      std::make_reverse_iterator(std::upper_bound(from, holds.end(), start, starts_before));
  const auto found = std::find_if(last, std::make_reverse_iterator(from),
                                  [](const Hold& h) { return h.release == kNever; });
  if (found == std::make_reverse_iterator(from))
    throw std::logic_error("HoldCalendar::close: the open hold is lost");
  return *found;
}

}  // namespace angara
