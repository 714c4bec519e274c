#pragma once
// How LT times what passes through the buffer behind an output (sim.lt_buffers): the least time
// a packet holds it, and the stream an LT train makes through it. Worked out from the hop rules
// (RouterCore: channel timing, pipeline, VCUp/VCDown's routing cycles, the VC layout).

#include "models/router/issue.h"
#include "models/router/router_core.h"

namespace angara {

// The least time a packet of `length` cycles through output `port`, VC `vc`, holds the buffer
// behind it: across the channel, through the next router (its pipeline; VCUp/VCDown store it
// whole and read the table first) and out of it, then the credits' way back. The endpoint takes
// it as it comes.
inline Cycle least_hold(const RouterCore& core, PortId port, VcId vc, Cycle length) {
  const ChannelTiming& t = core.timing(port);
  const RouterShared& shared = core.shared();
  Cycle through = 0;
  if (!core.is_local(port)) {
    through = !shared.vcs.collective(vc) ? t.serialization(1) + shared.pipeline
                                         : length + core.collective_routing_cycles();
  }
  return 2 * t.latency + through + length;
}

// An LT train's packets following one another through the VC of request `r`.
struct Stream {
  int lanes;     // its packets in the buffer at once (HoldCalendar's lanes)
  int packet;    // flits
  Cycle step;    // from one packet's start to the next's
  Cycle period;  // from its start until the next train of the stream may start
  Cycle tail;    // from its start until its tail has left
};
Stream stream(const RouterCore& core, const OutputRequest& r);

}  // namespace angara
