#pragma once
// The documented zero-load latency of a packet, from its creation at the source endpoint to its
// tail wholly in the destination endpoint, when nothing else is in the network:
//
//   T0 = Lp + Sp(1)                      injection channel: head into the first router
//      + (H + 1) * P                     pipeline of each of the H + 1 routers on the way
//      + H * (Ll + Sl(1))                each router-to-router link: latency + head flit
//      + Lp + Sp(F)                      ejection channel: latency + the whole packet
//
// H router-to-router hops, F flits on the wire (header + data), P = router.pipeline_cycles,
// Ll/Sl and Lp/Sp the link and local (endpoint) channel latency and serialization in cycles.
// Valid when the local channel is not slower than the links (the Table 1 case, where both carry
// 75 Gbit/s): then no tail ever catches up with its head.

#include "models/core/params.h"

namespace angara {

// The same, its channel timings worked out once (for a model that asks per packet).
class ZeroLoad {
 public:
  explicit ZeroLoad(const FabricParams& params)
      : m_link(params.link, params.router.clock_mhz),
        m_local(params.endpoint, params.router.clock_mhz),
        m_pipeline(static_cast<Cycle>(params.router.pipeline_cycles)) {}

  Cycle latency(int hops, int flits) const {
    return m_local.latency + transit(hops) + m_local.serialization(flits);
  }
  // From the tail wholly in the first router to the tail wholly in the destination endpoint
  // (the same for any length: the tail follows the head).
  Cycle transit(int hops) const {
    const auto h = static_cast<Cycle>(hops);
    return m_local.serialization(1) + (h + 1) * m_pipeline +
           h * (m_link.latency + m_link.serialization(1)) + m_local.latency;
  }
  const ChannelTiming& link() const { return m_link; }
  const ChannelTiming& local() const { return m_local; }  // the endpoints' channels

 private:
  ChannelTiming m_link, m_local;
  Cycle m_pipeline;
};

inline Cycle zero_load_latency(const FabricParams& params, int hops, int flits) {
  return ZeroLoad(params).latency(hops, flits);
}

}  // namespace angara
