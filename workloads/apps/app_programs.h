#pragma once
// The applications of the published collective-subnet study as CPU programs, one per node (ranks =
// node ids):
//   SpMV  y = A x with N rows in equal blocks and d non-zeros per row: each iteration computes
//         its block (2 d flops per row; time from the compute model, by default at
//         app.spmv_mflops), then allgathers y (8 bytes per row)
//         by recursive doubling or over the subnet (every rank broadcasts its block on one of the
//         machine's trees, roots spread evenly).
//   Heat  the explicit 2D scheme on app.grid split over a px x py process grid (blocks as square
//         as the node count allows, ranks row-major): each step sends its faces (8 bytes per
//         cell) to its up to 4 neighbours, computes the interior, receives the halos, computes
//         the boundary cells (app.flops_per_cell per cell; by default at app.heat_gflops; each of
//         the two a parallel region of its own), then allreduces (max) the
//         diffusion coefficient along tree 0, with messages or over the subnet.
// Every program records, per iteration, when it ended and how its time split.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "collectives/subnet/tree.h"
#include "models/core/params.h"
#include "models/cpu/task.h"
#include "models/node/host.h"
#include "models/topology/torus.h"
#include "workloads/params/compute_model.h"
#include "workloads/params/workload_params.h"

namespace angara {

// The bytes every program sends from: one block for all programs (32768 programs must not each
// hold a copy), made before any program starts as long as the longest send, and never resized,
// so that a send suspended halfway (a face longer than a message or than the endpoint's buffer)
// still reads live memory when it resumes. Byte i is send_pattern(i), never zero, so that a
// receiver can check what came.
class SendBlock {
 public:
  explicit SendBlock(std::size_t bytes);
  // The first `bytes` bytes; std::logic_error if the block is shorter (sized too small).
  std::span<const std::byte> first(std::size_t bytes) const;
  std::size_t size() const { return m_bytes.size(); }

 private:
  std::vector<std::byte> m_bytes;
};

// What a node's program sees of the machine: its own host, the machine's size, geometry, trees
// and clock, and what to run (app: the application's sizes and rates; workload: its iterations
// and collective algorithm; compute: how long its blocks take).
struct NodeContext {
  NodeId node = 0;
  Host& host;
  int nodes = 0;
  const Torus& torus;
  const TreeSet& trees;
  double clock_mhz = 0;
  const WorkloadParams& workload;
  const AppParams& app;
  const ComputeModel& compute;
  const SendBlock& outgoing;  // what its sends carry (the same block for every node)
};

// The applications' kernels per unit of work (docs/NODE.md, compute model). SpMV, per row of a
// CSR matrix: 2 d flops; d 8-byte values and d 4-byte column indices, a 4-byte row pointer, y's
// 8-byte store and x's 8-byte load (x read once: non-zeros near the diagonal). Heat, per cell:
// flops_per_cell flops; u's 8-byte load (its neighbours come from cache) and the new u's store.
Kernel spmv_kernel(int nonzeros_per_row);
Kernel heat_kernel(int flops_per_cell);

// How much of y a node's program has had arrive over the whole run, against what one iteration
// brings it (the progress lines' share of a long iteration): with messages, the bytes its channel
// has received (by recursive doubling a rank below P', the largest power of two <= nodes, gets
// the other nodes' blocks, a rank above it all of them); over the subnet, the broadcast packets
// landed.
struct YArrived {
  std::uint64_t so_far = 0, per_iteration = 0;
};
YArrived spmv_y_arrived(Host& host, int nodes, std::uint64_t rows_per_node,
                        SoftwareAlgorithm algorithm, Cycle now);

struct IterationRecord {
  Cycle end = 0;         // local cycle the iteration ended at
  Cycle compute = 0;     // cycles computing
  Cycle collective = 0;  // cycles in the allgather / allreduce
};

// What every node's program records: [node][iteration].
using AppLog = std::vector<std::vector<IterationRecord>>;

// The heat equation's process grid and a rank's block.
struct HeatGrid {
  int px = 1, py = 1;
  HeatGrid(const std::vector<int>& cells, int nodes);
  // Cells of rank r's block along x and y.
  std::int64_t width(int rank) const;
  std::int64_t height(int rank) const;
  std::vector<int> neighbours(int rank) const;  // left, right, down, up, those that exist
  // Bytes of the longest face any of `nodes` ranks sends (8 bytes a cell).
  std::size_t largest_face_bytes(int nodes) const;

 private:
  std::int64_t m_nx, m_ny;
};

// Byte i of what the programs send (never zero): heat checks every halo against it.
std::byte send_pattern(std::size_t i);

// The value each node brings to step k's allreduce (max), and the max over all nodes.
std::int64_t heat_sigma(NodeId node, int k);

Task spmv_program(NodeContext ctx, AppLog& log);
Task heat_program(NodeContext ctx, const HeatGrid& grid,
                  const std::vector<std::int64_t>& expected_max, AppLog& log);

}  // namespace angara
