#pragma once
// Free flits of one downstream VC buffer as its sender sees them. Credits come back with a delay,
// so returns are kept with the cycle from which they may be used.

#include <utility>

#include "models/core/ids.h"
#include "models/core/ring_queue.h"
#include "models/timing/buffer_claim.h"

namespace angara {

class CreditCounter {
 public:
  explicit CreditCounter(int flits = 0) : m_capacity(flits), m_available(flits) {}

  int capacity() const { return m_capacity; }  // the buffer's flits

  // Credits usable at `now` (absorbs the returns that are due).
  int at(Cycle now);
  // Earliest cycle >= `claim.from` with `claim.need` credits usable, or kNever with what is
  // known now.
  Cycle when(const BufferClaim& claim) const;
  void consume(int flits) { m_available -= flits; }
  // A return of `flits` usable from cycle `at`; returns in cycle order. True if a sender waits.
  bool add(Cycle at, int flits);
  // A sender found too few credits and waits for the next return.
  void mark_waited_on() { m_waited_on = true; }
  int available() const { return m_available; }

 private:
  int m_capacity;
  int m_available;
  RingQueue<std::pair<Cycle, int>> m_pending;
  bool m_waited_on = false;
};

}  // namespace angara
