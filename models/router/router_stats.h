#pragma once
// Network statistics of one router over a measurement window [from, to) (config [stats],
// docs/STATS.md): what each output carried, how full each input VC was, and the router's counters.
// Plain C++, fed by RouterCore::issue() with every copy a router sends, in AT and LT alike, so
// the three timing modes count the same way. A router without one (stats off) pays a null test
// per hop.
//
// What is counted where:
// - an output (a link, the local port's ejection channel, the internal port to the PEGroup):
//   the copies whose head started on it in the window, their wire flits, and the cycles the
//   channel was busy inside the window (each copy holds it for its serialization time);
// - an input VC: a packet's flits count from its head's arrival until its tail has left (whole
//   packets, as the waveforms' vc occupancy), clipped to the window: the time-weighted mean and
//   the maximum over the window;
// - the router: copies started in the window, their flits, and the cycles they waited between
//   the first cycle the pipeline let them start and the cycle they started (output or crossbar
//   input busy, credits short, or behind another packet of their VC).

#include <cstdint>
#include <vector>

#include "models/core/ids.h"

namespace angara {

class RouterStats {
 public:
  // `ports` outputs and inputs of `vcs` VCs each; the window is [from, to). `buffers`: the
  // timing model has input buffers (AT, LT with buffers), so their occupancy is kept.
  RouterStats(int ports, int vcs, Cycle from, Cycle to, bool buffers);

  // One copy of `packets` packets (an LT train stands for several) and `flits` wire flits, from
  // input (in, in_vc) to output `out`: ready at `ready`, started at `start`, on the output for
  // `length` cycles. `frees_input`: its last copy, whose tail has left the input at `tail_out`;
  // its head arrived there at `arrival`.
  void issued(PortId in, VcId in_vc, bool frees_input, PortId out, int packets, int flits,
              Cycle arrival, Cycle ready, Cycle start, Cycle length, Cycle tail_out);

  struct Output {
    std::uint64_t packets = 0;
    std::uint64_t flits = 0;
    Cycle busy = 0;  // cycles inside the window the channel carried something
  };
  struct InputVc {
    double mean_flits = 0;  // time-weighted over the window
    int max_flits = 0;
  };
  struct Counters {
    std::uint64_t packets = 0;  // copies started in the window (a packet with two outputs: 2)
    std::uint64_t flits = 0;
    std::uint64_t wait_cycles = 0;
  };

  Cycle from() const { return m_from; }
  Cycle to() const { return m_to; }
  const Output& output(PortId port) const { return m_outputs[port]; }
  const Counters& counters() const { return m_counters; }
  // The input VC's occupancy over the window, from what was issued so far (call it when the
  // network has drained: a packet still in the buffer has not been counted); zero without
  // buffers. Kept as two steps a packet and hop inside the window (32 bytes), sorted here.
  InputVc input_vc(PortId port, VcId vc) const;

 private:
  // A change of an input VC's flits at a cycle inside the window.
  struct Step {
    Cycle at;
    int flits;
  };
  bool in_window(Cycle c) const { return c >= m_from && c < m_to; }

  int m_vcs;
  Cycle m_from, m_to;
  bool m_buffers;
  std::vector<Output> m_outputs;            // [port]
  std::vector<std::vector<Step>> m_inputs;  // [port * vcs + vc]
  std::vector<int> m_initial;               // [port * vcs + vc]: flits held at `from`
  Counters m_counters;
};

}  // namespace angara
