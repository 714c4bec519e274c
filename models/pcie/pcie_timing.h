#pragma once
// The PCIe link between a node's host and its network adapter, as a timing formula. Data move in
// TLPs of at most max_payload_bytes, each carrying tlp_overhead_bytes beside its payload, over
// lanes x transfer rate x line-code efficiency bits per second; a transfer also pays the one-way
// latency once. Throughput is therefore limited by the effective PCIe rate when that is lower
// than the network link's (Table 1: gen2 x16 carries 64 Gbit/s of data, 58.5 Gbit/s of payload
// in 256-byte TLPs, below the 75 Gbit/s links).

#include <cmath>
#include <cstdint>

#include "models/core/params.h"

namespace angara {

class PcieTiming {
 public:
  explicit PcieTiming(const PcieParams& params) : m_params(params) {}

  // Data bits per second over all lanes, after the line code, in Gbit/s.
  double data_gbps() const;
  // TLPs and bytes on the link for a transfer of `bytes` of payload.
  std::uint64_t tlps(std::uint64_t bytes) const;
  std::uint64_t wire_bytes(std::uint64_t bytes) const;
  // Time the transfer occupies the link (no latency), ns.
  double serialization_ns(std::uint64_t bytes) const;
  std::uint64_t serialization_ps(std::uint64_t bytes) const { return ps(serialization_ns(bytes)); }
  static std::uint64_t ps(double ns) {
    return static_cast<std::uint64_t>(std::llround(ns * 1000.0));
  }
  // One way, latency included: the first byte leaves the host at 0, the last arrives then, ns.
  double transfer_ns(std::uint64_t bytes) const {
    return m_params.latency_ns + serialization_ns(bytes);
  }
  // Payload throughput of back-to-back transfers of `bytes`, Gbit/s.
  double payload_gbps(std::uint64_t bytes) const;

 private:
  PcieParams m_params;
};

}  // namespace angara
