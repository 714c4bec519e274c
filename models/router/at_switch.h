#pragma once
// AT's switch: the state a router keeps between cycles when packets are timed one cycle at a
// time, and the allocation that reads it. Input VC FIFOs, credit counters in flits, the busy
// outputs and crossbar inputs, round-robin switch allocation (a packet with several destinations
// takes one output at a time, as each frees), and the PEGroup's sends queued at the internal
// port. The hop rules (routes, timing, issuing a copy) are RouterCore's; LT does not build one.
// Plain C++: RouterAt feeds it packets and credits with the cycles at which they arrive and
// carries out its grants (BookSim's iq_router: buffers, buffer state and allocator apart).

#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/packet.h"
#include "models/core/ring_queue.h"
#include "models/fabric/credit_counter.h"
#include "models/router/issue.h"
#include "models/router/ring_budget.h"
#include "models/router/router_core.h"
#include "models/router/router_trace.h"
#include "models/router/vcup_driver.h"

namespace angara {

class AtSwitch {
 public:
  // The switch of the router whose rules are `core` (which it issues through).
  explicit AtSwitch(RouterCore& core);
  AtSwitch(const AtSwitch&) = delete;
  AtSwitch& operator=(const AtSwitch&) = delete;

  // A packet announced by the upstream; its head_at/tail_at say when it is in this router's
  // buffer (input `port`, VC header.vc). Returns the cycle to wake for it, or kNever when a
  // packet ahead of it in the same VC already holds a wake-up.
  Cycle receive(PortId port, Packet& packet);

  // `flits` credits for output (port, vc), usable from cycle `at`. Returns true when a packet is
  // waiting for them, i.e. the shell should wake at `at`.
  bool return_credits(PortId port, VcId vc, int flits, Cycle at);

  // Switch allocation at cycle `now`: appends the packets that start on an output now.
  void allocate(Cycle now, std::vector<Grant>& grants);
  // Hands the packets granted to the PEGroup port over to the PEGroup and queues what it sends.
  // Called after the shell has carried out the grants (the upstream reads a packet's VC from it
  // when its credits return, and the PEGroup may recycle the packet).
  void run_pegroup();

  // The next cycle after `now` at which allocate() can make progress with what is known now.
  Cycle next_wakeup(Cycle now);

  // For the deadlock watchdog: the oldest head packet still waiting, or none.
  struct Blocked {
    Cycle since = 0;
    std::string what;
  };
  std::optional<Blocked> oldest_blocked(Cycle now) const;

  // Turns tracing on (the signals to drive; see router_trace.h).
  void set_trace(std::unique_ptr<RouterTrace> trace);

  // Worm bubble (ring_budget.h): from now on packets enter rings as `rings` admits; `wake` wakes
  // this router for a cycle, when a packet leaves a ring it waits on.
  void set_ring_budget(RingBudget& rings, std::function<void(Cycle)> wake) {
    m_rings = &rings;
    m_ring_wake = std::move(wake);
  }

  // From now on `driver` says when the link ports' VCUp packets go and to where (vcup_driver.h).
  void set_vcup_driver(VcUpDriver* driver) { m_vcup_driver = driver; }
  // Input (port, vc) is a VCUp the driver drives: its space is freed by the driver.
  bool driven(PortId port, VcId vc) const {
    return m_vcup_driver && m_core.is_link(port) && vc == m_core.vc_up();
  }

 private:
  using Route = RouterCore::Route;
  using Option = RouterCore::Option;
  struct Queued {
    Packet* packet = nullptr;
    Route route;
    Cycle ready = 0;  // driven VCUp: its first request (kNever until then)
  };
  // An input VC's head asking for outputs this cycle; an adaptive one with the option it chose.
  struct Request {
    int input = 0;
    Route chosen;
  };
  struct Allocation;  // the IssueShell of allocate()

  // Input VCs holding packets, so that allocation visits only those (a router has up to 180).
  class InputSet {
   public:
    void set(int i) { m_words[i / 64] |= std::uint64_t{1} << (i % 64); }
    void clear(int i) { m_words[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
    template <typename Fn>
    void for_each(Fn fn) const {
      for (int w = 0; w < kWords; ++w) {
        for (std::uint64_t bits = m_words[w]; bits; bits &= bits - 1) {
          fn(w * 64 + std::countr_zero(bits));
        }
      }
    }

   private:
    static constexpr int kWords = ((kMaxLinkPorts + 2) * (kMaxVcs + 2) + 63) / 64;
    std::uint64_t m_words[kWords] = {};
  };

  int index(PortId port, VcId vc) const { return port * m_vc_count + vc; }
  PortId port_of(int index) const { return static_cast<PortId>(index / m_vc_count); }
  // The option an adaptive head takes at `now`: a free output with the most room beyond its need
  // on an adaptive VC, else the escape VC if it has room.
  std::optional<Route> choose_now(PortId in, const Queued& queued, Cycle now);
  // Worm bubble: the ring a point-to-point packet from input (`in`, `in_vc`) enters on output
  // `out`, VC `vc` (-1: none, it goes on along its ring or leaves the links); and whether that
  // ring does not admit it now, in which case this router waits on the ring.
  int ring_entered(PortId in, VcId in_vc, PortId out, VcId vc, const Packet& packet) const;
  bool ring_full(PortId in, VcId in_vc, PortId out, VcId vc, const Packet& packet) {
    return m_rings != nullptr && ring_refuses(in, in_vc, out, vc, packet);  // inline: every try
  }
  bool ring_refuses(PortId in, VcId in_vc, PortId out, VcId vc, const Packet& packet);
  // Counts a granted packet into the ring it enters and out of the ring it leaves.
  void count_ring(const Grant& grant, Cycle now);
  void enqueue_send(const CollectiveSend& send);

  RouterCore& m_core;
  int m_vc_count;                           // per port: point-to-point VCs, VCUp, VCDown
  std::vector<RingQueue<Queued>> m_inputs;  // [port * vc_count + vc]
  InputSet m_busy_inputs;
  std::vector<Cycle> m_input_busy;       // [port]: crossbar input free from this cycle
  std::vector<Cycle> m_output_busy;      // [port]: output channel free from this cycle
  std::vector<CreditCounter> m_credits;  // [port * vc_count + vc]: free flits downstream
  std::vector<int> m_round_robin;        // [port]: last input index granted this output
  std::vector<Request> m_requests;       // scratch: input VCs that may start this cycle
  std::vector<Grant> m_to_pegroup;       // granted to the PEGroup, not yet handed over
  std::vector<CollectiveSend> m_sends;   // scratch: what the PEGroup sends
  std::unique_ptr<RouterTrace> m_trace;  // null: tracing off
  VcUpDriver* m_vcup_driver = nullptr;   // null: VCUp routes by the tables' timing
  RingBudget* m_rings = nullptr;         // null: no worm bubble
  std::function<void(Cycle)> m_ring_wake;
};

}  // namespace angara
