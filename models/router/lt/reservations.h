#pragma once
// LT's reservation model of one router: where and when a copy of a packet can start, and its
// booking. The output channels and crossbar inputs are calendars of booked intervals; with
// buffers (sim.lt_buffers) the buffer behind each output VC is a hold calendar that answers
// what AT's credits would (LtBuffers keeps the fabric's). A copy starts at the first cycle from
// its request's earliest at which its output is free for its serialization, its crossbar input
// too, and the buffer behind has room for it (and the bubble) over the least time it can hold
// it (train_pacing.h). A packet with several copies or options takes the one that can start
// first, as AT's allocation would grant it. The hop rules are RouterCore's; LtSwitch carries the
// bookings out (docs/LT.md says where this departs from AT).

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>

#include "models/router/issue.h"
#include "models/router/router_core.h"
#include "models/timing/hold_calendar.h"
#include "models/timing/link_calendar.h"

namespace angara {

class LtReservations {
 public:
  // The reservations of the router whose rules are `core`.
  explicit LtReservations(const RouterCore& core);
  LtReservations(const LtReservations&) = delete;
  LtReservations& operator=(const LtReservations&) = delete;

  // Models the buffers behind the outputs in `holds`, [port * VCs + vc] (its share of
  // LtBuffers); without, only the channels are booked.
  void set_holds(HoldCalendar* holds) { m_holds = holds; }
  bool buffers() const { return m_holds != nullptr; }
  // The buffer behind output `out`'s VC `vc` (with buffers).
  HoldCalendar& holds(PortId out, VcId vc) { return m_holds[out * m_core.vc_count() + vc]; }

  // Where request `r` would start (with buffers), nothing booked: the cycle, its gaps in the
  // output's and the crossbar input's calendars, and what it holds of the buffer behind. A train
  // is paced by the credit loop (r.tail, r.input). `copies`: of the packet, through its input.
  struct Fit {
    Cycle at;
    LinkCalendar::Gap output, input;
    BufferClaim claim;  // flits, train lanes
    Cycle behind = 0;   // of at - r.earliest, the cycles the output was booked by others
  };
  Fit fit(OutputRequest& r, Cycle now, int copies);

  // The starts of a packet's copies as last worked out, [output]; `fresh`: those worked out since
  // the last copy was booked; `last`: the last fit worked out since then (and its request after
  // fit()), which book() takes as it is if it is for the copy it books.
  struct CopyStarts {
    struct Worked {
      OutputRequest request;
      Fit fit;
    };
    std::array<Cycle, 32> at;  // set by clear() for the packet's outputs only
    std::uint32_t fresh = 0;
    std::optional<Worked> last;

    void clear(std::uint32_t outs) {
      for (; outs != 0; outs &= outs - 1) at[std::countr_zero(outs)] = 0;
    }
  };
  // Books request `r` at the first cycle it can start (without buffers: its output's first free
  // gap), its tail no earlier than `tail_floor` (RouterCore::tail_floor); next_copy()'s fit,
  // from `starts`, where it is for this request. Returns the start and, of its wait, the cycles
  // its output was booked by others (Fit::behind).
  struct Booked {
    Cycle at, behind;
  };
  Booked book(OutputRequest& r, Cycle now, int copies, Cycle tail_floor,
              const CopyStarts* starts = nullptr);

  // The option of `route` (RouterCore::for_each_option) a copy of `packet` from input `port`
  // could start on first, from cycle `from`, and that cycle (nothing booked).
  struct Start {
    RouterCore::Option option;
    Cycle at;
  };
  Start first_start(PortId port, const Packet& packet, const RouterCore::Route& route, Cycle from,
                    Cycle now, int copies);
  // The output of a point-to-point or tree `route` whose copy first_start() would choose.
  PortId next_copy(PortId port, const Packet& packet, const RouterCore::Route& route, Cycle from,
                   Cycle now, int copies, CopyStarts& starts);

  // Asks the cache for output `port`'s calendar; and for crossbar input `port`'s (with buffers).
  void prefetch_output(PortId port) const;
  void prefetch_input(PortId port) const;

 private:
  // The crossbar input's calendar (the PEGroup's input orders its sends itself: null).
  LinkCalendar* crossbar_input(PortId input);
  LinkCalendar* output(PortId port) const { return wide_or(m_outputs, port, false); }
  LinkCalendar* crossbar(PortId port) const { return wide_or(m_crossbar_inputs, port, true); }
  // A port in place is found without reading the router's port count; only m_wide's crossbar
  // inputs need it, to skip its outputs.
  template <typename Array>
  LinkCalendar* wide_or(const Array& in_place, PortId port, bool crossbars) const {
    if (port < in_place.size()) return const_cast<LinkCalendar*>(&in_place[port]);
    const std::size_t wide_from = crossbars ? m_core.port_count() - m_outputs.size() : 0;
    return &m_wide[wide_from + port - in_place.size()];
  }

  const RouterCore& m_core;
  HoldCalendar* m_holds = nullptr;
  // [port], the crossbar inputs without the PEGroup's: a torus router's in place, a fat tree
  // switch's further ports in m_wide, so that a torus router stays small.
  std::array<LinkCalendar, 2 * kMaxDims + 2> m_outputs;
  std::array<LinkCalendar, 2 * kMaxDims + 1> m_crossbar_inputs;
  std::unique_ptr<LinkCalendar[]> m_wide;  // outputs, then crossbar inputs, past those
};

}  // namespace angara
