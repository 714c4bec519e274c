#pragma once
// How long a node takes to compute its block of an application's work ([compute], docs/NODE.md):
//   flat      the application's measured single-node rate (app.spmv_mflops, app.heat_gflops),
//             the default: time = flops / rate;
//   roofline  time = max(flops / node.gflops, bytes / bandwidth) + compute.region_overhead_ns per
//             parallel region, the bandwidth the last-level cache's when the block's working set
//             fits in it, else memory's;
//   table     a user's measured times per block size, interpolated linearly.
// No SystemC: the config loader checks the parameters, the application programs use the model.

#include <string>
#include <vector>

namespace angara {

enum class ComputeModelKind { Flat, Roofline, Table };

// [compute]. Bandwidths are the closest published measurements of the Table 1 processor
// (docs/NODE.md gives the sources); the flop ceiling is node.gflops.
struct ComputeParams {
  ComputeModelKind model = ComputeModelKind::Flat;
  double memory_gbps = 30.6;      // STREAM-style triad, one socket, 8 cores
  double cache_gbps = 154.4;      // the same from the L3 cache
  double cache_mib = 20;          // L3 size (Table 1)
  double region_overhead_ns = 0;  // fork and join of one parallel region
  std::string table;              // CSV file of work_size,time_ns (model "table")

  // Throws a ConfigError naming the key, value and rule; with model "table", reads the file.
  void validate() const;
};

// What one unit of an application's work (a matrix row, a grid cell) costs.
struct Kernel {
  double flops = 0;
  // Bytes its loads and stores name, counted as STREAM counts them (no write-allocate); also what
  // the unit keeps resident between sweeps, so block x bytes is the working set.
  double bytes = 0;
};

// One row of a compute table: a block of `work` units takes `ns` nanoseconds.
struct TablePoint {
  double work = 0;
  double ns = 0;
};

class ComputeModel {
 public:
  static ComputeModel flat(double gflops);
  static ComputeModel roofline(const ComputeParams& params, double peak_gflops);
  // `points`: sizes strictly increasing (load_compute_table checks); `origin` names the file.
  static ComputeModel table(std::vector<TablePoint> points, std::string origin);

  ComputeModelKind kind() const { return m_kind; }

  // Nanoseconds to compute `part` units of a block of `block` units, as one parallel region.
  double ns(const Kernel& kernel, double part, double block) const;

  // Throws a ConfigError (compute.table) if the table does not cover a block of `block` units.
  void check_block(double block) const;

 private:
  double table_ns(double block) const;

  ComputeModelKind m_kind = ComputeModelKind::Flat;
  double m_gflops = 0;  // flat: the rate; roofline: the ceiling
  ComputeParams m_params;
  std::vector<TablePoint> m_points;
  std::string m_origin;
};

// The model `params` asks for: flat at `flat_gflops`, a roofline under `peak_gflops`, or the
// table read from params.table.
ComputeModel make_compute_model(const ComputeParams& params, double peak_gflops,
                                double flat_gflops);

}  // namespace angara
