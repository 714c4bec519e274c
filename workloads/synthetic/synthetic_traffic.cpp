#include "workloads/synthetic/synthetic_traffic.h"

#include <algorithm>

namespace angara {
namespace {

int message_flits(const TrafficParams& params) {
  return params.message_flits > 0 ? params.message_flits : params.packet_flits;
}

}  // namespace

SyntheticTraffic::SyntheticTraffic(NodeId self, const Destinations& destinations,
                                   const TrafficParams& params, std::uint64_t seed,
                                   ProbeSchedule probes)
    : m_self(self),
      m_destinations(destinations),
      m_flits{params.bimodal_flits.empty() ? message_flits(params) : params.bimodal_flits[0],
              params.bimodal_flits.empty() ? message_flits(params) : params.bimodal_flits[1]},
      m_first_share(params.bimodal_flits.empty() ? 1.0 : params.bimodal_fraction),
      m_sends(params.rate > 0.0 && destinations.sends(self)),
      m_injection(params, params.rate / params.mean_wire_flits()),
      m_rng(seed, self),
      m_probes(std::move(probes)) {}

bool SyntheticTraffic::start_message() {
  if (m_sends && !m_load) {
    PacketRequest load;
    load.created = m_injection.next(m_rng);
    load.dst = m_destinations.pick(m_self, m_rng);
    const bool first = m_flits[0] == m_flits[1] || m_rng.uniform01() < m_first_share;
    load.data_flits = m_flits[first ? 0 : 1];
    m_load = load;
  }
  const bool probe = m_next_probe < m_probes.cycles.size() &&
                     (!m_load || m_probes.cycles[m_next_probe] <= m_load->created);
  if (probe) {
    m_message = {m_probes.dst, m_flits[0], m_probes.cycles[m_next_probe++]};
    m_message.tag = kProbeTag;
  } else if (m_load) {
    m_message = *m_load;
    m_load.reset();
  } else {
    return false;
  }
  m_rest = m_message.data_flits;
  m_message.message_packets =
      static_cast<std::uint32_t>((m_rest + kMaxDataFlits - 1) / kMaxDataFlits);
  m_message.message_index = 0;
  return true;
}

std::optional<PacketRequest> SyntheticTraffic::next() {
  if (m_rest == 0) {
    if (!start_message()) return std::nullopt;
  } else {
    ++m_message.message_index;  // the rest of the message
  }
  PacketRequest packet = m_message;
  packet.data_flits = std::min(m_rest, kMaxDataFlits);
  m_rest -= packet.data_flits;
  return packet;
}

}  // namespace angara
