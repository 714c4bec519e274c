#pragma once
// Host: a node's CPU (a CpuModule running one program), its memory as the PCIe endpoint writes it
// (receive rings, message records, the send-progress count) and its stores into the endpoint's
// window. Programs talk to the network through the host's MessageChannels (message_channel.h).

#include <tlm>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/core/params.h"
#include "models/cpu/cpu_at.h"
#include "models/cpu/task.h"
#include "models/pcie/host_link.h"
#include "models/pcie/host_protocol.h"

namespace angara {

class MessageChannel;

class Host : public CpuModule, public HostLinkEnd {
 public:
  tlm::tlm_initiator_socket<> pcie;  // stores into the PCIe endpoint's window
  tlm::tlm_target_socket<> memory;   // the endpoint's DMA writes

  // `clock_mhz`: the router clock, in whose cycles the host counts; `quantum`: how far the
  // program may run ahead of the kernel (1 in AT: not at all).
  Host(const sc_core::sc_module_name& name, NodeId id, int nodes, const NodeParams& params,
       double clock_mhz, const FabricClock& clock, Cycle quantum);
  ~Host() override;

  NodeId id() const { return m_id; }
  int nodes() const { return m_nodes; }
  const NodeParams& params() const { return m_params; }
  // Library time of one send / receive call (node.send_overhead_ns, node.recv_overhead_ns).
  Cycle send_call_cycles() const { return m_send_call; }
  Cycle recv_call_cycles() const { return m_recv_call; }
  MessageChannel& channel(int number);

  // --- for MessageChannel: what host memory holds, as visible at local cycle `at`
  struct Received {
    Cycle visible = 0;
    host_protocol::MessageRecord record;
  };
  // The oldest message record of `channel` visible at `at`, taken off the queue; none if none.
  std::optional<host_protocol::MessageRecord> take_record(int channel, Cycle at);
  // Whether a record of `channel` is visible at `at` (a reading of host memory: no call cost).
  bool record_visible(int channel, Cycle at) const {
    return !m_records[channel].empty() && m_records[channel].front().visible <= at;
  }
  // Room in the endpoint's send buffer as known at `at`.
  std::uint64_t tx_free(Cycle at);
  // How much of `wanted` bytes one send at `at` takes: at most node.max_message_bytes and what
  // the send buffer has room for (possibly 0).
  std::size_t send_size(std::size_t wanted, Cycle at);
  // Waits until the send buffer has room for `bytes` (at most node.max_message_bytes), reading
  // the endpoint's progress count in host memory (no call cost).
  Task room_for(std::size_t bytes);
  // Whether the send buffer has that room at `at` (the same reading, without waiting).
  bool has_room(std::size_t bytes, Cycle at);
  const std::byte* ring(int channel) const { return m_rings[channel].get(); }
  // The signals a program waits on for a message record / a send-progress count. A signal keeps
  // one notification, so before each wait it is notified again for what has landed but is not
  // yet visible to the program (it may run ahead of the kernel).
  CpuSignal& readable(int channel);
  CpuSignal& writable();
  // A store into the endpoint's window at local cycle `at`; returns the cycle the CPU is done.
  Cycle store(std::uint64_t address, const void* data, std::size_t bytes, Cycle at);
  // A send of `header` and the iovec's first header.bytes bytes at local cycle `at`: stored by
  // the CPU, or (longer than node.pio_max_bytes) a doorbell for the endpoint's DMA read; takes
  // its room in the send buffer. Returns the cycle the CPU is done.
  Cycle send(const host_protocol::SendHeader& header,
             std::span<const std::span<const std::byte>> iov, Cycle at);

  // --- for CollectivePort: the collective subnet's writes into host memory
  // Broadcast packets (results = false) or reduce results of `tree` landed and visible at `at`.
  std::uint64_t landed(int tree, bool results, Cycle at);
  CpuSignal& landing(int tree, bool results);
  // Bytes of the collective area (broadcasts land there); zeros where nothing has landed.
  std::span<const std::byte> collective_area(std::uint64_t offset, std::size_t bytes) {
    return {area_at(offset, bytes), bytes};
  }
  // The slot of reduce `reduce_id` of `tree`: its last result's bytes.
  std::span<const std::byte> reduce_result(int tree, int reduce_id, std::size_t bytes) {
    return {result_slot(tree, reduce_id), bytes};
  }

 private:
  // A count the endpoint writes into host memory (send progress, packets landed): each value
  // visible to the program from the cycle it has landed.
  class VisibleCount {
   public:
    void write(Cycle visible, std::uint64_t value, Cycle written);  // by the kernel at `written`
    std::uint64_t at(Cycle when);  // the latest value visible at `when`
    // The signal a program waits on for the next value, notified again for a value landed but
    // not yet visible (the program may run ahead of the kernel).
    CpuSignal& next();

   private:
    struct Written {
      Cycle visible;
      std::uint64_t value;
    };
    std::deque<Written> m_pending;
    std::uint64_t m_seen = 0;
    CpuSignal m_signal;
  };
  VisibleCount& landed_count(int tree, bool results);
  std::byte* area_at(std::uint64_t offset, std::size_t bytes);
  std::byte* result_slot(int tree, int reduce_id);

  // The endpoint's DMA writes into host memory.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;

  bool write_ring(std::uint64_t offset, const unsigned char* data, std::size_t bytes);

  NodeId m_id;
  int m_nodes;
  NodeParams m_params;
  Cycle m_send_call, m_recv_call;
  // Rings are allocated on first use and not cleared: only the pages written cost memory.
  std::vector<std::unique_ptr<std::byte[]>> m_rings;
  std::vector<std::deque<Received>> m_records;
  std::vector<CpuSignal> m_readable;
  VisibleCount m_tx_sent;           // bytes the endpoint has put on the network
  std::uint64_t m_tx_accepted = 0;  // bytes the node's channels have sent
  std::vector<std::unique_ptr<MessageChannel>> m_channels;
  // Allocated on first use: most hosts of a big machine use one tree or none.
  std::vector<std::unique_ptr<VisibleCount>> m_landed;  // [2 * tree + results]
  std::vector<std::byte> m_collective_area;             // grows to the highest byte landed
  std::vector<std::unique_ptr<std::byte[]>> m_results;  // [tree]: 16 slots of 256 bytes
};

}  // namespace angara
