#include "models/router/lt/train_pacing.h"

#include <algorithm>

namespace angara {

// A train's packets follow one another through the VC as a stream, which has at most the
// packets its buffer lets in at once (each needs room for itself and the bubble) in flight per
// credit round trip, over the point-to-point VC sets its packets would have taken in turn: a
// window of flits per round trip, the last window's packets out one after another.
//
// Through VCUp/VCDown a train that turned into them (the bubble: one packet per round trip)
// comes evenly spaced, and its packets are in the buffer together only as far as their holds
// overlap: fewer lanes, which leaves room for other trees' packets. A point-to-point train held
// back comes in windows of packets back to back, which an even spacing would misread.
Stream stream(const RouterCore& core, const OutputRequest& r) {
  const VcLayout& vcs = core.shared().vcs;
  const ChannelTiming& t = core.timing(r.out);
  const int packet = r.flits / r.train;
  const int bubble = r.need - r.flits;
  const int capacity = core.buffer_flits(r.out, r.vc);
  const int in_flight = std::clamp((capacity - packet - bubble) / packet + 1, 1, r.train);
  const int sets = vcs.collective(r.vc) ? 1 : vcs.injection_sets();
  const Cycle round_trip = least_hold(core, r.out, r.vc, t.serialization(packet));
  const int window = std::min(in_flight * packet * sets, r.flits);
  const Cycle period = (static_cast<Cycle>(r.flits) * round_trip + window - 1) / window;
  const Cycle tail = std::max(r.length, period - round_trip + t.serialization(window));
  const Cycle step = t.serialization(packet);
  int lanes = in_flight;
  if (vcs.collective(r.vc) && r.spacing > step) {
    lanes = std::min(lanes, static_cast<int>((round_trip + r.spacing - 1) / r.spacing));
  }
  return {lanes, packet, step, period, tail};
}

}  // namespace angara
