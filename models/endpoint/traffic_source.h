#pragma once
// The seam between a node's endpoint and what it runs: a workload hands out packets to send, an
// observer hears about created and delivered packets. A node's PCIe endpoint is such a source, on
// the same router port and protocol.

#include <optional>
#include <stdexcept>

#include "models/core/packet.h"

namespace angara {

// A packet a workload wants sent; the endpoint turns it into a Packet when it injects it.
struct PacketRequest {
  NodeId dst = 0;
  int data_flits = 0;
  Cycle created = 0;
  PacketKind kind = PacketKind::Write;  // collective kinds enter the router's PEGroup FIFO
  std::uint32_t tag = 0;                // the workload's own mark (e.g. which operation)
  std::uint32_t train = 1;              // packets it stands for (Packet::train)
  // Synthetic traffic: the packets of the message this request is part of (all created at the
  // same cycle) and this one's place among them; a message is measured to its last packet.
  std::uint32_t message_packets = 1;
  std::uint32_t message_index = 0;

  int wire_flits() const { return static_cast<int>(train) * (kHeaderFlits + data_flits); }
};

// One node's packet generator. Requests come out in creation order.
class TrafficSource {
 public:
  virtual ~TrafficSource() = default;
  // The next packet this node creates, or none if it creates none now. A source that is given
  // more work later asks its endpoint to look again (EndpointCore::refresh).
  virtual std::optional<PacketRequest> next() = 0;
  // Writes the payload (and, for collective packets, the tree fields of the header) of the
  // packet made from `request`. By default a check pattern the sink verifies.
  virtual void fill(Packet& packet, const PacketRequest& /*request*/) {
    fill_check_pattern(packet);
  }
  // Takes back a request that next() handed out and that has not been created yet, so that the
  // next call may hand out an earlier one (a source given new work, EndpointCore::refresh).
  virtual void put_back(const PacketRequest& /*request*/) {
    throw std::logic_error("this traffic source cannot take a request back");
  }
  // The packet made from the last request handed out has started on the injection channel; its
  // tail is in the router's buffer at packet.tail_at.
  virtual void sent(const Packet& /*packet*/) {}
};

// Hears about every packet of a run: measurement windows, statistics.
class TrafficObserver {
 public:
  virtual ~TrafficObserver() = default;
  virtual void created(const PacketRequest& request, NodeId at) = 0;  // at node `at`
  // Called once the packet's tail is in the endpoint of node `at` (packet.tail_at).
  virtual void delivered(const Packet& packet, NodeId at) = 0;
  // A packet for node `to` is entering the network (LT: it is delivered within the same call):
  // a chance to have what delivered() will read fetched from memory meanwhile.
  virtual void on_the_way(NodeId /*to*/) {}
};

// Two observers hearing every packet, the first first (a measurement and a statistic beside it).
class ObserverPair : public TrafficObserver {
 public:
  ObserverPair(TrafficObserver& first, TrafficObserver& second)
      : m_first(first), m_second(second) {}
  void created(const PacketRequest& request, NodeId at) override {
    m_first.created(request, at);
    m_second.created(request, at);
  }
  void delivered(const Packet& packet, NodeId at) override {
    m_first.delivered(packet, at);
    m_second.delivered(packet, at);
  }
  void on_the_way(NodeId to) override {
    m_first.on_the_way(to);
    m_second.on_the_way(to);
  }

 private:
  TrafficObserver& m_first;
  TrafficObserver& m_second;
};

}  // namespace angara
