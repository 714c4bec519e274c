#include "workloads/apps/app_programs.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>

#include "collectives/software/software_collectives.h"
#include "collectives/software/subnet_collectives.h"
#include "models/core/model_error.h"
#include "models/core/packet_ledger.h"
#include "models/core/rng.h"
#include "models/node/collective_port.h"

namespace angara {
namespace {

constexpr std::size_t kWordBytes = 8;  // one double per row or cell

// Cycles to compute `part` units of a block of `block` units (one parallel region).
Cycle compute_cycles(const NodeContext& ctx, const Kernel& kernel, double part, double block) {
  return cycles_for_ns(ctx.compute.ns(kernel, part, block), ctx.clock_mhz);
}

// A halo must hold what its neighbour sent: the send block's bytes.
void check_halo(NodeId node, int k, NodeId from, const std::vector<std::byte>& halo) {
  for (std::size_t i = 0; i < halo.size(); ++i) {
    if (halo[i] != send_pattern(i)) {
      model_error(report_id::kApplication,
                  fmt::format("heat: node {} step {}: byte {} of the halo from node {} is "
                              "{:#04x}, sent as {:#04x}",
                              node, k, i, from, static_cast<int>(halo[i]),
                              static_cast<int>(send_pattern(i))));
    }
  }
}

}  // namespace

SendBlock::SendBlock(std::size_t bytes) : m_bytes(bytes) {
  for (std::size_t i = 0; i < bytes; ++i) m_bytes[i] = send_pattern(i);
}

std::span<const std::byte> SendBlock::first(std::size_t bytes) const {
  if (bytes > m_bytes.size()) {
    throw std::logic_error(
        fmt::format("send block of {} bytes asked for {}: size it for the "
                    "longest send before the programs start",
                    m_bytes.size(), bytes));
  }
  return {m_bytes.data(), bytes};
}

std::byte send_pattern(std::size_t i) {
  // Never zero, and different from byte to byte, so that stale or moved memory shows.
  return static_cast<std::byte>(1 + (i * 37) % 251);
}

Kernel spmv_kernel(int nonzeros_per_row) {
  const double d = nonzeros_per_row;
  return {2.0 * d, 12.0 * d + 4 + 8 + 8};
}

Kernel heat_kernel(int flops_per_cell) {
  return {static_cast<double>(flops_per_cell), 8 + 8};
}

Task spmv_program(NodeContext ctx, AppLog& log) {
  const NodeId node = ctx.node;
  Host& host = ctx.host;
  CpuCore& cpu = host.core();
  // y's values do not matter to the timing: they are sent by length (Payload), so that no node
  // holds all of y and, in LT, packets go as trains (sim.train_packets).
  host.channel(0).set_payload(Payload::TimingOnly);
  Mailbox mailbox(host.channel(0));
  CollectivePort port(host, Payload::TimingOnly);
  const int nodes = ctx.nodes;
  const std::uint64_t rows = ctx.app.rows / static_cast<std::uint64_t>(nodes);
  const auto block = static_cast<double>(rows);
  const Cycle compute = compute_cycles(ctx, spmv_kernel(ctx.app.nonzeros_per_row), block, block);
  std::vector<int> trees;
  for (int t = 0; t < kMaxTrees; ++t) {
    if (ctx.trees[t] != nullptr) trees.push_back(t);
  }
  std::array<std::uint64_t, kMaxTrees> landed{};
  const auto y_block = ctx.outgoing.first(rows * kWordBytes);
  for (int k = 0; k < ctx.workload.repetitions; ++k) {
    IterationRecord& r = log[node][k];
    co_await cpu.compute(compute);
    r.compute = compute;
    const Cycle start = cpu.local_time();
    std::vector<std::byte> y;  // stays empty: the allgathers return once every block is in
    if (ctx.workload.algorithm == SoftwareAlgorithm::Subnet) {
      co_await subnet_allgather(port, nodes, trees, y_block, landed, y);
    } else {
      co_await recursive_doubling_allgather(mailbox, nodes, y_block, y);
    }
    r.end = cpu.local_time();
    r.collective = r.end - start;
  }
}

YArrived spmv_y_arrived(Host& host, int nodes, std::uint64_t rows_per_node,
                        SoftwareAlgorithm algorithm, Cycle now) {
  const auto n = static_cast<std::uint64_t>(nodes);
  const std::uint64_t block_bytes = rows_per_node * kWordBytes;
  if (algorithm == SoftwareAlgorithm::Subnet) {
    std::uint64_t landed = 0;
    for (int t = 0; t < kMaxTrees; ++t) landed += host.landed(t, false, now);
    return {landed, (n - 1) * ((block_bytes + 255) / 256)};
  }
  std::uint64_t p = 1;
  while (p * 2 <= n) p *= 2;
  const std::uint64_t blocks = host.id() >= p ? n : n - 1;
  return {host.channel(0).bytes_received(), blocks * block_bytes};
}

HeatGrid::HeatGrid(const std::vector<int>& cells, int nodes)
    : m_nx(cells.at(0)), m_ny(cells.at(1)) {
  // The divisor pair whose blocks have the shortest perimeter (least halo).
  double best = 0;
  for (int p = 1; p <= nodes; ++p) {
    if (nodes % p != 0) continue;
    const double perimeter = static_cast<double>(m_nx) / p +
                             static_cast<double>(m_ny) / (static_cast<double>(nodes) / p);
    if (best == 0 || perimeter < best) {
      best = perimeter;
      px = p;
      py = nodes / p;
    }
  }
}

std::int64_t HeatGrid::width(int rank) const {
  const int i = rank % px;
  return m_nx / px + (i < m_nx % px ? 1 : 0);
}

std::int64_t HeatGrid::height(int rank) const {
  const int j = rank / px;
  return m_ny / py + (j < m_ny % py ? 1 : 0);
}

std::size_t HeatGrid::largest_face_bytes(int nodes) const {
  std::int64_t cells = 0;
  for (int rank = 0; rank < nodes; ++rank) cells = std::max({cells, width(rank), height(rank)});
  return static_cast<std::size_t>(cells) * kWordBytes;
}

std::vector<int> HeatGrid::neighbours(int rank) const {
  const int i = rank % px, j = rank / px;
  std::vector<int> out;
  if (i > 0) out.push_back(rank - 1);
  if (i + 1 < px) out.push_back(rank + 1);
  if (j > 0) out.push_back(rank - px);
  if (j + 1 < py) out.push_back(rank + px);
  return out;
}

std::int64_t heat_sigma(NodeId node, int k) {
  Rng rng(static_cast<std::uint64_t>(k) + 1, node);
  return static_cast<std::int64_t>(rng.next() >> 2);
}

Task heat_program(NodeContext ctx, const HeatGrid& grid,
                  const std::vector<std::int64_t>& expected_max, AppLog& log) {
  const NodeId node = ctx.node;
  Host& host = ctx.host;
  CpuCore& cpu = host.core();
  Mailbox mailbox(host.channel(0));
  CollectivePort port(host);
  const Tree& tree = *ctx.trees[0];
  const int rank = static_cast<int>(node);
  const std::int64_t w = grid.width(rank), h = grid.height(rank);
  const std::int64_t interior = std::max<std::int64_t>(0, w - 2) * std::max<std::int64_t>(0, h - 2);
  const Kernel kernel = heat_kernel(ctx.app.flops_per_cell);
  const auto cells = static_cast<double>(w * h);
  const Cycle interior_cycles = compute_cycles(ctx, kernel, static_cast<double>(interior), cells);
  const Cycle boundary_cycles =
      compute_cycles(ctx, kernel, static_cast<double>(w * h - interior), cells);
  // A face along x (to the left/right neighbour) is h cells, along y (down/up) w cells.
  auto face_bytes = [&](int neighbour) {
    const bool same_row = neighbour / grid.px == rank / grid.px;
    return static_cast<std::size_t>(same_row ? h : w) * kWordBytes;
  };
  const std::vector<int> neighbours = grid.neighbours(rank);
  std::vector<std::byte> halo;
  for (int k = 0; k < ctx.workload.repetitions; ++k) {
    IterationRecord& r = log[node][k];
    for (int nb : neighbours) {
      co_await mailbox.send(static_cast<NodeId>(nb), ctx.outgoing.first(face_bytes(nb)));
    }
    co_await cpu.compute(interior_cycles);
    for (int nb : neighbours) {
      co_await mailbox.receive_from(static_cast<NodeId>(nb), face_bytes(nb), halo);
      check_halo(node, k, static_cast<NodeId>(nb), halo);
    }
    co_await cpu.compute(boundary_cycles);
    r.compute = interior_cycles + boundary_cycles;
    const Cycle start = cpu.local_time();
    std::vector<std::int64_t> words = {heat_sigma(node, k), 0};
    if (ctx.workload.algorithm == SoftwareAlgorithm::Subnet) {
      co_await hardware_allreduce(port, 0, Reduction::Max, static_cast<std::uint64_t>(k), words);
    } else {
      co_await tree_allreduce(mailbox, ctx.torus, tree, Reduction::Max, words);
    }
    if (words[0] != expected_max[k]) {
      model_error(report_id::kApplication,
                  fmt::format("heat: node {} step {}: allreduce(max) gave {}, expected {}", node, k,
                              words[0], expected_max[k]));
    }
    r.end = cpu.local_time();
    r.collective = r.end - start;
  }
}

}  // namespace angara
