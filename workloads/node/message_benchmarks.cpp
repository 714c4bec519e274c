#include "workloads/node/message_benchmarks.h"

#include <algorithm>
#include <stdexcept>

#include "models/core/zero_load.h"
#include "models/node/host.h"
#include "models/pcie/pcie_timing.h"

namespace angara {
namespace {

constexpr int kFlitBytes = 16;
constexpr int kPacketBytes = kMaxDataFlits * kFlitBytes;
constexpr int kHeaderBytes = 16;  // SendHeader / MessageRecord

std::vector<std::byte> payload(int bytes) {
  std::vector<std::byte> v(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::byte>(i * 7 + 1);
  return v;
}

// Receives and releases messages until `bytes` bytes have come; `received` gets the cycle the
// last receive returned (before its release).
Task receive_bytes(MessageChannel& channel, std::uint64_t bytes, Cycle* received = nullptr) {
  while (bytes > 0) {
    auto message = co_await channel.recv();
    if (!message) {
      co_await channel.readable();
      continue;
    }
    if (message->bytes > bytes) throw std::runtime_error("received more bytes than were sent");
    bytes -= message->bytes;
    if (received != nullptr) *received = channel.host().core().local_time();
    co_await channel.recv_complete();
  }
}

Task send_done(MessageChannel& channel, NetAddr peer) {
  const std::byte done[8]{};
  co_await send_all(channel, peer, done);
}

Task receive_done(MessageChannel& channel) {
  co_await receive_bytes(channel, 8);
}

// Flits on the wire for `bytes` of message in packets of at most 256 bytes.
std::uint64_t wire_flits(int bytes) {
  const int packets = (bytes + kPacketBytes - 1) / kPacketBytes;
  return static_cast<std::uint64_t>(packets) +
         static_cast<std::uint64_t>((bytes + kFlitBytes - 1) / kFlitBytes);
}

}  // namespace

Task msgrate_sender(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                    std::vector<SizePoint>& points) {
  CpuCore& cpu = channel.host().core();
  points.resize(workload.sizes.size());
  for (std::size_t s = 0; s < workload.sizes.size(); ++s) {
    const auto data = payload(workload.sizes[s]);
    points[s].bytes = workload.sizes[s];
    points[s].count = workload.messages;
    points[s].start = cpu.local_time();
    for (int i = 0; i < workload.messages; ++i) co_await send_all(channel, peer, data);
    co_await receive_done(channel);
  }
}

Task msgrate_receiver(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                      std::vector<SizePoint>& points) {
  points.resize(workload.sizes.size());
  for (std::size_t s = 0; s < workload.sizes.size(); ++s) {
    co_await receive_bytes(channel,
                           static_cast<std::uint64_t>(workload.sizes[s]) *
                               static_cast<std::uint64_t>(workload.messages),
                           &points[s].end);
    co_await send_done(channel, peer);
  }
}

void msgrate_cycles(std::vector<SizePoint>& points) {
  for (SizePoint& p : points) p.cycles = p.end - p.start;
}

Task pingpong_initiator(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload,
                        std::vector<SizePoint>& points) {
  CpuCore& cpu = channel.host().core();
  points.resize(workload.sizes.size());
  for (std::size_t s = 0; s < workload.sizes.size(); ++s) {
    const auto data = payload(workload.sizes[s]);
    points[s].bytes = workload.sizes[s];
    points[s].count = workload.messages;
    for (int i = 0; i < workload.messages; ++i) {
      const Cycle start = cpu.local_time();
      Cycle received = start;
      co_await send_all(channel, peer, data);
      co_await receive_bytes(channel, data.size(), &received);
      points[s].cycles += received - start;
    }
  }
}

// Sends every message back from its fragments in the receive ring, then releases it.
Task pingpong_responder(MessageChannel& channel, NetAddr peer, const WorkloadParams& workload) {
  for (int bytes : workload.sizes) {
    for (int i = 0; i < workload.messages; ++i) {
      for (int got = 0; got < bytes;) {
        auto message = co_await channel.recv();
        if (!message) {
          co_await channel.readable();
          continue;
        }
        got += static_cast<int>(message->bytes);
        co_await send_all(
            channel, peer,
            {message->fragments.begin(), message->fragments.begin() + message->count});
        co_await channel.recv_complete();
      }
    }
  }
}

double message_bound_gbps(const PcieParams& pcie, const FabricParams& fabric, int bytes) {
  const double bits = 8.0 * bytes;
  const double pcie_ns =
      PcieTiming(pcie).serialization_ns(static_cast<std::uint64_t>(bytes) + kHeaderBytes);
  const double wire_bits = static_cast<double>(wire_flits(bytes)) * kFlitBits;
  const double narrowest_gbps =
      std::min(fabric.link.bandwidth_gbps, fabric.endpoint.bandwidth_gbps);
  return std::min(bits / pcie_ns, bits * narrowest_gbps / wire_bits);
}

Cycle message_one_way_cycles(const NodeParams& node, const PcieParams& pcie_params,
                             const FabricParams& fabric, int hops, int bytes) {
  if (bytes < 1 || bytes > std::min(kPacketBytes, node.pio_max_bytes)) {
    throw std::invalid_argument("message_one_way_cycles: one packet stored by the CPU only");
  }
  const double mhz = fabric.router.clock_mhz;
  const PcieTiming pcie(pcie_params);
  const auto with_header = static_cast<std::uint64_t>(bytes) + kHeaderBytes;
  const int flits = 1 + (bytes + kFlitBytes - 1) / kFlitBytes;
  return cycles_for_ns(node.send_overhead_ns, mhz) +
         cycles_for_ns(pcie.transfer_ns(with_header), mhz) +
         zero_load_latency(fabric, hops, flits) +
         cycles_for_ns(pcie.transfer_ns(with_header), mhz) +
         cycles_for_ns(node.recv_overhead_ns, mhz);
}

}  // namespace angara
