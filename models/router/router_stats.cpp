#include "models/router/router_stats.h"

#include <algorithm>

namespace angara {

RouterStats::RouterStats(int ports, int vcs, Cycle from, Cycle to, bool buffers)
    : m_vcs(vcs),
      m_from(from),
      m_to(to),
      m_buffers(buffers),
      m_outputs(static_cast<std::size_t>(ports)),
      m_inputs(static_cast<std::size_t>(ports) * vcs),
      m_initial(static_cast<std::size_t>(ports) * vcs, 0) {}

void RouterStats::issued(PortId in, VcId in_vc, bool frees_input, PortId out, int packets,
                         int flits, Cycle arrival, Cycle ready, Cycle start, Cycle length,
                         Cycle tail_out) {
  if (in_window(start)) {
    Output& o = m_outputs[out];
    o.packets += static_cast<std::uint64_t>(packets);
    o.flits += static_cast<std::uint64_t>(flits);
    m_counters.packets += static_cast<std::uint64_t>(packets);
    m_counters.flits += static_cast<std::uint64_t>(flits);
    m_counters.wait_cycles += start > ready ? start - ready : 0;
  }
  const Cycle busy_from = std::max(start, m_from), busy_to = std::min(start + length, m_to);
  if (busy_to > busy_from) m_outputs[out].busy += busy_to - busy_from;
  if (!frees_input || !m_buffers) return;
  // The input VC held the packet over [arrival, tail_out): kept as steps inside the window.
  const Cycle held_from = std::max(arrival, m_from), held_to = std::min(tail_out, m_to);
  if (held_to <= held_from) return;
  const std::size_t i = static_cast<std::size_t>(in) * m_vcs + in_vc;
  if (arrival <= m_from) {
    m_initial[i] += flits;
  } else {
    m_inputs[i].push_back({held_from, flits});
  }
  if (held_to < m_to) m_inputs[i].push_back({held_to, -flits});
}

RouterStats::InputVc RouterStats::input_vc(PortId port, VcId vc) const {
  const std::size_t i = static_cast<std::size_t>(port) * m_vcs + vc;
  std::vector<Step> steps = m_inputs[i];
  // At one cycle departures before arrivals: the maximum counts what is held at once.
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    return a.at != b.at ? a.at < b.at : a.flits < b.flits;
  });
  InputVc result;
  int held = m_initial[i];
  result.max_flits = held;
  double flit_cycles = 0;
  Cycle at = m_from;
  for (const Step& s : steps) {
    flit_cycles += static_cast<double>(held) * static_cast<double>(s.at - at);
    at = s.at;
    held += s.flits;
    result.max_flits = std::max(result.max_flits, held);
  }
  flit_cycles += static_cast<double>(held) * static_cast<double>(m_to - at);
  if (m_to > m_from) result.mean_flits = flit_cycles / static_cast<double>(m_to - m_from);
  return result;
}

}  // namespace angara
