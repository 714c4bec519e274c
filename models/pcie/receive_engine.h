#pragma once
// ReceiveEngine: a PCIe adapter's receiving side. Message packets are put back in their sender's
// order (message tags), a message is gathered in the adapter and, once whole, written by DMA into
// its channel's receive ring followed by its record; when the ring is full, it waits in the
// adapter until the host releases space. Received broadcast packets and reduce results are
// written straight into host memory (one-sided), each followed by its tree's count of landed
// broadcast packets or results. Landings are booked on the PCIe link toward the host, in ps.

#include <tlm>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <vector>

#include "models/core/collective_format.h"
#include "models/core/packet.h"
#include "models/pcie/by_node.h"
#include "models/pcie/host_dma.h"
#include "models/pcie/host_protocol.h"
#include "models/pcie/pcie_shared.h"
#include "models/timing/link_calendar.h"
#include "models/timing/wake_calendar.h"

namespace angara {

class ReceiveEngine : private WakeCalendar::Sleeper {
 public:
  // `dma` writes into host memory.
  ReceiveEngine(NodeId id, const PcieShared& shared, const FabricClock& clock,
                tlm::tlm_initiator_socket<>& dma);

  // From now on woken by `calendar` (LT) instead of alarm_event().
  void wake_on(WakeCalendar& calendar) { m_alarm.use(calendar); }
  // What the adapter's method waits on in AT: a call to process() is due.
  sc_core::sc_event& alarm_event() { return m_alarm.event(); }
  void process();  // arrivals and releases due now

  // A message packet ejected to this node; its tail is in the adapter at packet.tail_at.
  void take_message(const Packet& packet);
  // A broadcast packet or reduce result, landed in host memory as it comes.
  void land_collective(const Packet& packet);
  // The host has released `released` bytes of `channel`'s ring so far; the adapter knows at
  // `at_ps`.
  void release(int channel, std::uint64_t released, std::uint64_t at_ps);

  // Asks the cache for what take_message() reads (a packet is on its way here).
  void prefetch() const {
    __builtin_prefetch(&m_arrivals);
    __builtin_prefetch(&m_arrival_order);
    __builtin_prefetch(static_cast<const WakeCalendar::Sleeper*>(this));
    __builtin_prefetch(&m_alarm);
  }
  std::uint64_t messages_received() const { return m_messages_received; }

 private:
  // A packet waiting for its tail to be in: the heap orders small keys, the packets stay put.
  struct Arrival {
    Cycle at;
    std::uint64_t order;  // arrival order among equal times: determinism
    std::uint32_t slot;   // in m_arrived
    bool operator>(const Arrival& o) const { return at != o.at ? at > o.at : order > o.order; }
  };
  // Packets from one sender: the next expected, those that came early, the message being built.
  struct Stream {
    std::uint32_t expected = 0;
    std::map<std::uint32_t, Packet> early;
    std::vector<std::byte> message;  // its values (none for a timing-only message)
    std::uint32_t gathered = 0;      // bytes of it so far
    std::uint32_t message_bytes = 0;
  };
  struct Whole {
    host_protocol::MessageRecord record;
    std::vector<std::byte> bytes;  // empty: a timing-only message
  };
  // A channel's receive ring as the adapter sees it.
  struct Ring {
    std::uint64_t written = 0;   // bytes of ring used so far (messages rounded up to 16)
    std::uint64_t released = 0;  // bytes the host has released, as far as the adapter knows
    std::deque<Whole> waiting;   // whole messages that did not fit yet
  };
  struct Release {
    std::uint64_t at_ps;
    int channel;
    std::uint64_t released;
  };

  void woken() override { process(); }
  void accept(NodeId src, const Packet& packet);
  void deliver_waiting(int channel);
  void wake_for_release();  // when the next release is due (a message waits for ring space)
  std::uint64_t serialization_ps(std::uint64_t bytes) const {
    return m_shared.pcie.serialization_ps(bytes);
  }

  const PcieShared& m_shared;
  const FabricClock& m_clock;
  HostDma m_dma;
  LinkCalendar m_to_host;  // PCIe toward the host, in ps
  // Per tree: broadcast packets and reduce results landed in host memory.
  std::array<std::uint64_t, kMaxTrees> m_broadcasts_landed{}, m_results_landed{};

  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> m_arrivals;
  std::vector<Packet> m_arrived;            // slots of the packets in m_arrivals
  std::vector<std::uint32_t> m_free_slots;  // of m_arrived
  std::uint64_t m_arrival_order = 0;
  ByNode<Stream> m_streams;        // by sender
  std::vector<Ring> m_rings;       // by channel
  std::deque<Release> m_releases;  // in the order the host wrote them
  Alarm m_alarm;

  std::uint64_t m_messages_received = 0;
};

}  // namespace angara
