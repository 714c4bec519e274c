#pragma once
// Loosely-timed flow control of one buffer: the flits each packet holds in it, and from when to
// when. A sender in AT may start a packet when its credits show room; credits are spent at the
// start and come back once the packet has left the buffer. LT knows both ends of that interval
// when it books a packet through the whole network in one call, so it keeps the intervals
// (holds) instead of a counter, and asks when the buffer first has room at or after a cycle.
// Packets are booked out of time order (LT initiators run ahead of each other), so a hold
// booked earlier may start later than the one asked for: the room must last as long as the new
// packet is sure to stay, or the two would overfill the buffer between them.
//
// An LT train (a stream of packets booked as one) holds the buffer in lanes: its window of
// packets in flight, each lane one packet's flits, the lanes starting and ending one packet's
// time apart, as the stream's packets enter and leave back to back. The next train of the
// stream then takes each lane as the one before gives it up, as its packets would.

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "models/core/ids.h"
#include "models/core/small_vector.h"
#include "models/timing/buffer_claim.h"

namespace angara {

class HoldCalendar {
 public:
  // The earliest cycle >= `claim.from` at which the buffer of `capacity` flits can take the
  // claim, given the holds known now. Holds that ended at or before `floor` are forgotten first
  // (no packet starts before the current cycle). kNever if only a hold still open could make
  // room.
  Cycle earliest(const BufferClaim& claim, int capacity, Cycle floor) {
    forget(floor);
    // With room for every lane beside all the holds there are, their times do not matter (a
    // buffer is mostly that empty below saturation).
    if (m_flits + claim.need + (claim.lanes - 1) * claim.flits <= capacity) return claim.from;
    return claim.lanes == 1 ? earliest_one(claim, capacity) : earliest_lanes(claim, capacity);
  }
  // A packet of `flits` flits holds the buffer from `start` until close() says when it left; a
  // train holds `lanes` of them, lane k from `start + k * step`. Inline, as close(): a packet
  // opens and closes a hold at every hop.
  void open(Cycle start, int flits, int lanes = 1, Cycle step = 0) {
    if (lanes == 1) {
      open_one(start, flits);
    } else {
      for (int k = 0; k < lanes; ++k) open_one(start + static_cast<Cycle>(k) * step, flits);
    }
    m_open.push_back({start, static_cast<std::uint32_t>(lanes), static_cast<std::uint32_t>(step)});
  }
  // The packet or train opened last of those still open has left at `release` (the sender's
  // credits are due then); a train's lane k `(lanes - 1 - k) * step` cycles before.
  void close(Cycle release) {
    // The one opened last: the calls through a calendar nest, so the last one in is first out.
    if (m_open.size() == 0) throw std::logic_error("HoldCalendar::close: no hold is open");
    const Opened opened = m_open.items().back();
    m_open.pop_back();
    if (opened.lanes == 1) {
      close_one(opened.start, release, m_holds.size() - 1);
    } else {
      close_lanes(opened, release);
    }
  }

  std::size_t holds() const { return m_holds.size(); }

 private:
  struct Hold {
    Cycle start = 0;
    Cycle release = kNever;  // kNever: open
    Cycle reach = kNever;    // the latest release of this hold and those before it in the list
    int flits = 0;
  };
  // Orders for searching the holds by start.
  static bool starts_before(Cycle t, const Hold& h) { return t < h.start; }
  static bool started_before(const Hold& h, Cycle t) { return h.start < t; }
  // Opened and not yet closed: a packet's hold, or a train's lanes.
  struct Opened {
    Cycle start;
    std::uint32_t lanes;
    std::uint32_t step;
  };
  // earliest() once the holds ended by the floor are forgotten.
  Cycle earliest_one(const BufferClaim& claim, int capacity);
  Cycle earliest_lanes(const BufferClaim& claim, int capacity);
  void open_one(Cycle start, int flits) {
    // In order of start, after those that start at the same cycle (mostly: last).
    m_flits += flits;
    if (m_holds.size() == 0 || m_holds.items().back().start <= start) {
      m_holds.push_back({start, kNever, kNever, flits});
    } else {
      insert_open(start, flits);
    }
  }
  // Closes the last open hold of those that start at `start`: mostly the one at `likely` (the
  // last hold of all, or a train's lane among the last).
  void close_one(Cycle start, Cycle release, std::size_t likely) {
    Hold* open = &m_holds.items()[likely];
    if (open->start != start || open->release != kNever) open = &open_hold(start);
    open->release = std::max(release, start);
    lower_reach(static_cast<std::size_t>(open - m_holds.items().data()));
  }
  // The reaches from hold `first` on, after its release came down from kNever.
  void lower_reach(std::size_t first) {
    const std::span<Hold> holds = m_holds.items();
    Cycle reach = first > 0 ? holds[first - 1].reach : 0;
    for (std::size_t i = first; i < holds.size(); ++i) {
      reach = std::max(reach, holds[i].release);
      if (holds[i].reach == reach) return;  // and so every one after it
      holds[i].reach = reach;
    }
  }
  void close_lanes(const Opened& opened, Cycle release);
  void forget(Cycle floor);
  void insert_open(Cycle start, int flits);  // open() for a hold that starts before the last
  Hold& open_hold(Cycle start);              // close()'s hold when it is not the last

  // What every question reads first, then the holds.
  int m_flits = 0;                // of the holds, all together
  SmallVector<Hold, 4> m_holds;   // in order of start
  SmallVector<Opened, 2> m_open;  // in the order opened
};

}  // namespace angara
