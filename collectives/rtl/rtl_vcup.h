#pragma once
// The transactor that runs VCUp's RTL (vcup.sv, or ANGARA_RTL_VCUP) beside the VCUp buffers of
// one router's direction ports in AT. Through RouterProbe it sees every packet announced to a
// VCUp and every copy granted out of one, writes each packet's head and tail flits into the RTL
// in the cycles they are written into the model's buffer, passes on every grant, and clocks each
// port's RTL while it holds packets (no clock otherwise).
// - Checking, the router keeps its own VCUp timing (RouterCore) and every output in every cycle
//   must be the model's: occupancy, the oldest and newest packet's stage and id, the request for
//   a copy and the destinations still to serve, the freed space.
// - Driving (VcUpDriver), the RTL's requests are the router's: a packet asks for its copies in
//   the cycles the RTL asks, and its space goes back upstream when the RTL frees it. Its
//   destinations must still be the tables', it may ask only for a packet wholly in, free one
//   only once its last copy is out, and it must ask or free within kMaxStall cycles while it
//   holds a packet.
// The first difference stops the run with a ModelError naming the node, the port, the signal,
// the cycle and both values.
//
// The local port's VCUp is the PEGroup FIFO, which has no table read or head analysis; it is
// not this block.
//
// RTL cycle c is the time from the rising edge at (c - 1/2) periods to the one at (c + 1/2). At
// (c + 1/4) periods, after the router has acted in cycle c, the transactor reads the RTL's
// outputs for cycle c and drives its inputs for cycle c, which the edge at (c + 1/2) takes
// (GatedClock::Sample::AfterRouter); driving, it reads the request and the free at (c - 1/4)
// too, before the router acts (Sample::Both).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "collectives/rtl/rtl_recording.h"
#include "collectives/rtl/rtl_stats.h"
#include "collectives/rtl/vcup_pins.h"
#include "collectives/subnet/tree.h"
#include "models/core/params.h"
#include "models/core/ring_queue.h"
#include "models/router/router_core.h"
#include "models/router/router_probe.h"
#include "models/router/vcup_driver.h"
#include "models/timing/fabric_clock.h"

namespace angara {

class RtlVcUp : public sc_core::sc_module, public RouterProbe, public VcUpDriver {
 public:
  // `where`: how messages name the node, e.g. "node (1,0,0)". `core`: the router whose VCUp
  // buffers it runs beside; `trees`: the routing tables the RTL is given. `stats`: where to
  // count what was compared (shared by the run's transactors). `flop_seed`: the RTL's flops start
  // from random values drawn from it (rtl_seed.h). `drives`: the RTL's timing drives the router
  // (which must then be given it as its VcUpDriver). `recording`: where to record the RTL's
  // waveform, every port's in one file (a traced node), or null.
  RtlVcUp(const sc_core::sc_module_name& name, std::string where, const RouterCore& core,
          const TreeSet& trees, const FabricClock& clock, RtlVcUpStats& stats,
          std::uint32_t flop_seed, bool drives, RtlRecording* recording = nullptr);
  ~RtlVcUp() override;

  void arrival(PortId port, const Packet& packet) override;
  void grant(const Grant& grant) override;

  void attach(Router router) override { m_router = std::move(router); }
  std::uint32_t request(PortId port, const Packet& packet, std::uint32_t outs, Cycle now) override;

  // Driving, the RTL must ask for a copy or free a packet at least this often while it holds one.
  static constexpr Cycle kMaxStall = 256;

 private:
  class Lane;  // one port's VCUp: its RTL and the model's packets in it
  void start_of_simulation() override;

  const RouterCore& m_core;
  Router m_router;                             // driving: the router's wake-up and credit return
  std::vector<std::unique_ptr<Lane>> m_lanes;  // [direction port]
  RtlRecording* m_recording;
  std::unique_ptr<RtlWaveform> m_waveform;  // the recording's VCD
};

}  // namespace angara
