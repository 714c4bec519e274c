#pragma once
// The SKIF-Aurora message tests (the published SKIF-Aurora measurements) as CPU programs over the
// message API.
//   MsgRate: rank 0 only sends `messages` messages of L bytes to rank 1, which only receives;
//     time from rank 0's first send to rank 1's last receive. r(L) = messages / time.
//   PingPong: rank 0 sends L bytes, rank 1 sends them back from its receive ring (zero copy);
//     half the mean round trip, from rank 0's send call to its receive returning.
// After each size rank 1 answers with an 8-byte message, so sizes do not overlap.

#include <cstdint>
#include <vector>

#include "models/core/params.h"
#include "models/cpu/task.h"
#include "models/node/message_channel.h"
#include "workloads/params/workload_params.h"

namespace angara {

// One message size's measurement.
struct SizePoint {
  int bytes = 0;
  int count = 0;     // messages (msgrate) or round trips (pingpong)
  Cycle start = 0;   // msgrate: rank 0's first send
  Cycle end = 0;     // msgrate: rank 1's last receive
  Cycle cycles = 0;  // msgrate: end - start (msgrate_cycles); pingpong: sum of the round trips
};

// `points` gets one entry per size. Each field is written by one of the two programs, so the
// vectors they wrote (one shared vector, or one on each MPI rank, summed) make the whole.
Task msgrate_sender(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                    std::vector<SizePoint>& points);
Task msgrate_receiver(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                      std::vector<SizePoint>& points);
// The msgrate points' cycles, once both programs have written their fields.
void msgrate_cycles(std::vector<SizePoint>& points);
Task pingpong_initiator(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                        std::vector<SizePoint>& points);
Task pingpong_responder(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload);

// The narrowest of the rates a stream of L-byte messages can have, Gbit/s of message bytes:
// PCIe (each message with its 16-byte header or record, in TLPs), the injection channel and the
// links (256-byte packets of 16-byte flits plus a header flit). The model must keep
// r(L) * L <= this.
double message_bound_gbps(const PcieParams& pcie, const FabricParams& fabric, int bytes);

// The zero-load one-way time of a message of up to min(256, node.pio_max_bytes) bytes (one
// packet, stored by the CPU), from the send call to the receive returning, in cycles:
//   send_overhead + [PCIe stores of 16 + L bytes + latency] + T0(hops, packet)
//   + [DMA of L bytes and the 16-byte record + latency] + recv_overhead
// each bracket rounded up to whole cycles (the adapter and the host see whole cycles); T0 is
// models/core/zero_load.h. Half a ping-pong round trip at zero load is exactly this.
Cycle message_one_way_cycles(const NodeParams& node, const PcieParams& pcie,
                             const FabricParams& fabric, int hops, int bytes);

}  // namespace angara
