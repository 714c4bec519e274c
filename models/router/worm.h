#pragma once
// A wormhole packet's flits across the routers it spans (router.switching = "wormhole"). A packet
// longer than a point-to-point buffer cannot be wholly in one: its head takes a free VC in the
// next router and its flits follow on credits, so its tail leaves a router only once the routers
// ahead have made room. The fabric still carries one transaction per packet; this plain C++ record
// works out, flit by flit, when each flit has left each router of the path granted so far, from
// the cycles the heads were granted (the only thing contention decides) and the channels' timing.
// Both timing shells use it, so a worm's timing is one code in AT and LT.
//
// Per hop i (router i's output), flit j (0 = head), in cycles, where flit j has wholly left:
//   left[i][j] >= start[i] + S_i(j + 1)                       the channel from the grant
//   left[i][j] >= left[i][j - 1] + S_i(j + 1) - S_i(j)        one flit after another
//   left[i][j] >= arrival[i][j]                               a flit may not leave before it is in
//   left[i][j] >= left[i + 1][j - W_i] + L_i + S_i(j + 1) - S_i(j)   a credit: flit j - W_i has
//                                                             left the next buffer (W_i flits)
// with arrival[i + 1][j] = left[i][j] + L_i and arrival[0] from the packet's head and tail in the
// first router's input buffer; the least such cycle is taken. The last hop (into the endpoint)
// has no window: the endpoint takes flits as they come. A value is known once what it depends on
// is, so tails become known as the head is granted further on: a hop's tail is known once the
// head has gone W_i flits' worth of hops beyond it, at the latest when it is ejected. With a
// window of a whole packet and nothing blocked this is virtual cut-through's timing exactly.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/ids.h"
#include "models/core/packet.h"
#include "models/core/params.h"

namespace angara {

class Worm;

// A router told when a worm's tail has left it (AT: it returns its input buffer's credits then).
class WormOwner {
 public:
  virtual void worm_tail_left(PortId in_port, VcId in_vc, int flits, Cycle tail) = 0;

 protected:
  ~WormOwner() = default;
};

// One router's output on a worm's path.
struct WormHop {
  Cycle start = 0;                     // the head's grant on the output
  const ChannelTiming* out = nullptr;  // the output channel
  int window = 0;                      // flits of the buffer behind the output; 0: no limit
  PortId in_port = 0;                  // where the packet is held in this router
  VcId in_vc = 0;
  WormOwner* owner = nullptr;  // told when its tail has left; null: asks tail() instead
  int known = 0;               // flits whose `left` is known
  bool told = false;           // tail given: to the owner, or read through tail()
  std::array<Cycle, kMaxPacketFlits> left{};
};

class Worm {
 public:
  // A packet of `flits` flits whose head is wholly in the first router's input buffer at
  // `head_at` and its tail at `tail_at`, come over a channel `in` (its flits one after another).
  void begin(int flits, Cycle head_at, Cycle tail_at, const ChannelTiming& in);
  // The next router's output, granted to the head; returns the hop's index. Works out what is
  // now known and tells the earlier hops' owners whose tails have become known (not this hop's:
  // its caller reads tail()).
  int add_hop(const WormHop& hop);
  // The cycle the tail has left hop `i`, kNever while unknown; reading it counts as telling.
  Cycle tail(int i);
  // Every hop's tail known and told: the record may be reused.
  bool finished() const;
  // The least a worm of `flits` holds a buffer of `window` flits behind a link: from its start
  // until its tail has left that buffer and the credits are back, when nothing ahead blocks it
  // (every router after the same link and window and `pipeline`, until it is ejected).
  static Cycle least_hold(int flits, int window, const ChannelTiming& link, Cycle pipeline);
  int flits() const { return m_flits; }

 private:
  void resolve(int current);
  Cycle arrival(int i, int j) const;

  int m_flits = 0;
  std::array<Cycle, kMaxPacketFlits> m_arrival{};  // into the first router's buffer
  std::vector<WormHop> m_hops;
};

// The machine's worms, reused: a packet names its worm by index + 1 (Packet::worm).
class WormPool {
 public:
  std::uint32_t acquire();
  Worm& at(std::uint32_t id) { return *m_worms[id - 1]; }
  void release(std::uint32_t id) { m_free.push_back(id); }

 private:
  std::vector<std::unique_ptr<Worm>> m_worms;
  std::vector<std::uint32_t> m_free;
};

}  // namespace angara
