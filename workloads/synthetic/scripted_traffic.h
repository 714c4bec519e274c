#pragma once
// A node's traffic given as a list: exact packets at exact cycles. For probes and for tests that
// need known pairs (zero-load latency, hand-made contention).

#include <deque>

#include "models/endpoint/traffic_source.h"

namespace angara {

class ScriptedTraffic : public TrafficSource {
 public:
  // `requests` must be in creation order.
  explicit ScriptedTraffic(std::deque<PacketRequest> requests) : m_requests(std::move(requests)) {}

  std::optional<PacketRequest> next() override {
    if (m_requests.empty()) return std::nullopt;
    PacketRequest r = m_requests.front();
    m_requests.pop_front();
    return r;
  }

 private:
  std::deque<PacketRequest> m_requests;
};

}  // namespace angara
