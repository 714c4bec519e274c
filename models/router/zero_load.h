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

inline Cycle zero_load_latency(const Config& config, int hops, int flits) {
  const ChannelTiming link(config.link, config.router.clock_mhz);
  const ChannelTiming local(config.endpoint, config.router.clock_mhz);
  const Cycle pipeline = static_cast<Cycle>(config.router.pipeline_cycles);
  const Cycle h = static_cast<Cycle>(hops);
  return local.latency + local.serialization(1) + (h + 1) * pipeline +
         h * (link.latency + link.serialization(1)) + local.latency + local.serialization(flits);
}

}  // namespace angara
