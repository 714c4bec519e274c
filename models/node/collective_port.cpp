#include "models/node/collective_port.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/core/collective_format.h"
#include "models/node/host.h"

namespace angara {
namespace {

constexpr std::size_t kMaxReduceWords = host_protocol::kResultSlotBytes / sizeof(std::int64_t);

}  // namespace

CollectivePort::CollectivePort(Host& host, Payload payload) : m_host(host), m_payload(payload) {}

std::string CollectivePort::where() const {
  return fmt::format("node {} collective port", m_host.id());
}

Timed<std::size_t> CollectivePort::broadcast(int tree, std::uint64_t offset,
                                             std::span<const std::byte> bytes) {
  if (tree < 0 || tree >= kMaxTrees || offset % 16 != 0) {
    throw MessageError(
        fmt::format("{}: broadcast on tree {} to offset {}: TreeIds are 0..{} and "
                    "offsets multiples of 16",
                    where(), tree, offset, kMaxTrees - 1));
  }
  CpuCore& cpu = m_host.core();
  const Cycle start = cpu.local_time() + m_host.send_call_cycles();
  const std::size_t taken = m_host.send_size(bytes.size(), start);
  if (taken == 0) return {cpu.compute(std::max<Cycle>(1, start - cpu.local_time())), 0};
  host_protocol::SendHeader header;
  header.kind = host_protocol::SendKind::Broadcast;
  header.tree = static_cast<std::uint8_t>(tree);
  header.set_landing_flits(static_cast<std::uint32_t>(offset / 16));
  header.bytes = static_cast<std::uint32_t>(taken);
  if (m_payload == Payload::TimingOnly) header.flags = host_protocol::kTimingOnly;
  const std::span<const std::byte> piece = bytes.first(taken);
  const Cycle done = m_host.send(header, std::span(&piece, 1), start);
  return {cpu.compute(done - cpu.local_time()), taken};
}

Timed<bool> CollectivePort::reduce(int tree, ReduceOp op, NodeId destination,
                                   std::span<const std::int64_t> words) {
  if (tree < 0 || tree >= kMaxTrees || words.empty() || words.size() > kMaxReduceWords ||
      words.size() % kWordsPerFlit != 0) {
    throw MessageError(
        fmt::format("{}: reduce of {} words on tree {}: TreeIds are 0..{}, a reduce "
                    "packet carries 2 to {} words, an even number",
                    where(), words.size(), tree, kMaxTrees - 1, kMaxReduceWords));
  }
  CpuCore& cpu = m_host.core();
  const Cycle start = cpu.local_time() + m_host.send_call_cycles();
  const std::size_t bytes = words.size_bytes();
  if (m_host.tx_free(start) < bytes)
    return {cpu.compute(std::max<Cycle>(1, start - cpu.local_time())), false};
  host_protocol::SendHeader header;
  header.kind = host_protocol::SendKind::Reduce;
  header.tree = static_cast<std::uint8_t>(tree);
  header.op = op.encode();
  header.set_dst_node(destination);
  header.bytes = static_cast<std::uint32_t>(bytes);
  const std::span<const std::byte> piece = std::as_bytes(words);
  const Cycle done = m_host.send(header, std::span(&piece, 1), start);
  return {cpu.compute(done - cpu.local_time()), true};
}

std::uint64_t CollectivePort::broadcasts(int tree) {
  return m_host.landed(tree, false, m_host.core().local_time());
}

std::uint64_t CollectivePort::results(int tree) {
  return m_host.landed(tree, true, m_host.core().local_time());
}

CpuCore::SignalAwaiter CollectivePort::arrival(int tree, bool results) {
  return m_host.core().wait(m_host.landing(tree, results));
}

std::span<const std::byte> CollectivePort::area(std::uint64_t offset, std::size_t bytes) {
  return m_host.collective_area(offset, bytes);
}

Timed<std::vector<std::int64_t>> CollectivePort::result(int tree, std::uint64_t k,
                                                        std::size_t words) {
  CpuCore& cpu = m_host.core();
  const Cycle at = cpu.local_time() + m_host.recv_call_cycles();
  const std::uint64_t landed = m_host.landed(tree, true, at);
  if (landed <= k || landed > k + kReducesPerTree) {
    throw MessageError(
        fmt::format("{}: result of reduce {} of tree {} taken when {} results have "
                    "landed (it is there from {} to {})",
                    where(), k, tree, landed, k + 1, k + kReducesPerTree));
  }
  const auto bytes = m_host.reduce_result(tree, static_cast<int>(k % kReducesPerTree),
                                          words * sizeof(std::int64_t));
  std::vector<std::int64_t> out(words);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return {cpu.compute(at - cpu.local_time()), std::move(out)};
}

Task broadcast_all(CollectivePort& port, int tree, std::uint64_t offset,
                   std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    co_await port.host().room_for(bytes.size());
    const std::size_t sent = co_await port.broadcast(tree, offset, bytes);
    bytes = bytes.subspan(sent);
    offset += sent;
  }
}

Task wait_broadcasts(CollectivePort& port, int tree, std::uint64_t count) {
  while (port.broadcasts(tree) < count) co_await port.arrival(tree, false);
}

// (GCC 12 miscompiles `while (!co_await ...)` at the top of a coroutine: it never starts.)
Task contribute(CollectivePort& port, int tree, ReduceOp op, NodeId destination,
                std::span<const std::int64_t> words) {
  for (;;) {
    const bool issued = co_await port.reduce(tree, op, destination, words);
    if (issued) co_return;
    co_await port.host().core().wait(port.host().writable());
  }
}

Task wait_results(CollectivePort& port, int tree, std::uint64_t count) {
  while (port.results(tree) < count) co_await port.arrival(tree, true);
}

Task hardware_allreduce(CollectivePort& port, int tree, Reduction op, std::uint64_t k,
                        std::vector<std::int64_t>& words) {
  co_await contribute(port, tree, ReduceOp{op, true}, port.host().id(), words);
  co_await wait_results(port, tree, k + 1);
  words = co_await port.result(tree, k, words.size());
}

}  // namespace angara
