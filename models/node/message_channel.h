#pragma once
// MessageChannel: the message API of a CPU program, in the spirit of SkifCh, the SKIF network's
// message library.
//   send(dst, iov)   sends a prefix of the iovec's bytes as one message and returns how many it
//                    took: at most node.max_message_bytes, at most what the endpoint's send
//                    buffer has room for, possibly 0. Nothing is buffered in the library: the
//                    caller sends the rest later (co_await writable() waits for room).
//   recv()           one received message, zero-copy: up to 3 fragments pointing into the
//                    channel's receive ring (a message wrapping around the ring's end comes in
//                    two); none if none has arrived (co_await readable() waits for one).
//   recv_complete()  releases the oldest received message's ring space.
// A channel set to Payload::TimingOnly sends messages timed like any other whose values are not
// carried (host_protocol.h), and hands out received messages by length only (no fragments).
// Messages from one sender arrive in the order sent; from different senders, in any order.
// Each call costs CPU time (node.*_overhead_ns, plus PCIe stores) and is co_awaited:
//   std::size_t n = co_await channel.send({peer, 0}, iov);
// Misuse (a send to an address that does not exist, recv_complete without a message received)
// throws MessageError naming the node, the channel and the rule.

#include <array>
#include <cstddef>
#include <deque>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/cpu/cpu_core.h"
#include "models/cpu/task.h"

namespace angara {

class Host;

class MessageError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// What the bytes a program sends stand for: their values (the default), or only their length and
// timing, for data whose values do not matter to a study (SpMV's y): nothing is landed, so a big
// machine need not hold every node's copy.
enum class Payload : std::uint8_t { Values, TimingOnly };

// A channel's network address: a node and one of its channels.
struct NetAddr {
  NodeId node = 0;
  int channel = 0;
  bool operator==(const NetAddr&) const = default;
};

inline constexpr int kMaxFragments = 3;  // SkifCh's SKIFCH_CONT_SIZE

struct Message {
  NetAddr from;
  std::array<std::span<const std::byte>, kMaxFragments> fragments{};
  int count = 0;          // fragments used
  std::size_t bytes = 0;  // the message's length
  // Copies the message into `out` (at least `bytes` long).
  void copy_to(std::span<std::byte> out) const;
};

// An API call's result, ready once its CPU time is spent.
template <typename T>
struct [[nodiscard]] Timed {
  CpuCore::ComputeAwaiter time;
  T value;
  bool await_ready() noexcept { return time.await_ready(); }
  void await_suspend(std::coroutine_handle<> h) noexcept { time.await_suspend(h); }
  T await_resume() { return std::move(value); }
};

class MessageChannel {
 public:
  MessageChannel(Host& host, int number);

  NetAddr address() const;
  Host& host() const { return m_host; }
  Payload payload() const { return m_payload; }
  void set_payload(Payload payload) { m_payload = payload; }
  Timed<std::size_t> send(NetAddr dst, std::span<const std::span<const std::byte>> iov);
  Timed<std::size_t> send(NetAddr dst, std::span<const std::byte> bytes) {
    return send(dst, std::span<const std::span<const std::byte>>(&bytes, 1));
  }
  // What recv() reads when awaited: the oldest record visible when the call ends.
  struct RecvPoll {
    MessageChannel& channel;
    std::pair<std::optional<Message>, Cycle> operator()() const { return channel.take(); }
  };
  CpuCore::PollAwaiter<RecvPoll> recv();
  CpuCore::ComputeAwaiter recv_complete();
  // Wait for a message to arrive / for room in the send buffer (may wake early: call again).
  CpuCore::SignalAwaiter readable();
  CpuCore::SignalAwaiter writable();
  // Waits until the send buffer has room for `bytes` (at most node.max_message_bytes), reading
  // the endpoint's progress count in host memory (no call cost), so that the next send takes a
  // whole message rather than the few bytes freed first.
  Task room_for(std::size_t bytes);
  // Free readings of host memory, for a program that sends and receives at once: whether the
  // send buffer has the room room_for() waits for; whether recv() would return a message.
  bool has_room(std::size_t bytes) const;
  bool arrived() const;
  // Waits for either (may wake early: check again).
  CpuCore::SignalAwaiter readable_or_writable();

  std::size_t outstanding() const { return m_outstanding.size(); }
  // Bytes of the messages recv() has handed out so far (how far a long exchange has got).
  std::uint64_t bytes_received() const { return m_bytes_received; }

 private:
  std::string where() const;
  std::pair<std::optional<Message>, Cycle> take();

  Host& m_host;
  int m_number;
  Payload m_payload = Payload::Values;
  std::deque<std::uint64_t> m_outstanding;  // ring bytes of received, unreleased messages
  std::uint64_t m_released = 0;
  std::uint64_t m_bytes_received = 0;
};

// What remains to send of an iovec, front first.
class Unsent {
 public:
  explicit Unsent(std::vector<std::span<const std::byte>> iov);
  bool empty() const { return m_bytes == 0; }
  std::size_t bytes() const { return m_bytes; }
  std::span<const std::span<const std::byte>> iov() const {
    return std::span(m_iov).subspan(m_front);
  }
  void drop(std::size_t sent);  // the first `sent` bytes have gone

 private:
  std::vector<std::span<const std::byte>> m_iov;
  std::size_t m_front = 0;
  std::size_t m_bytes = 0;
};

// Sends all of `bytes` to `dst`: as several messages if longer than one send takes, each once
// the send buffer has room for it.
Task send_all(MessageChannel& channel, NetAddr dst, std::span<const std::byte> bytes);
// The same from an iovec (e.g. a received message's fragments, zero-copy).
Task send_all(MessageChannel& channel, NetAddr dst, std::vector<std::span<const std::byte>> iov);
// Waits for the next message, copies it into `out` (resized to it), releases its ring space and
// tells who sent it (if `from` is given).
Task receive_copy(MessageChannel& channel, std::vector<std::byte>& out, NetAddr* from = nullptr);

}  // namespace angara
