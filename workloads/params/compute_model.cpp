#include "workloads/params/compute_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "models/core/config_error.h"
#include "models/core/params.h"
#include "workloads/params/compute_table.h"

namespace angara {

void ComputeParams::validate() const {
  check_range("compute.memory_gbps", memory_gbps, 1e-3, 1e6, "GB/s");
  check_range("compute.cache_gbps", cache_gbps, 1e-3, 1e6, "GB/s");
  check_range("compute.cache_mib", cache_mib, 0, 1e6, "MiB", "0: every block is read from memory");
  check_range("compute.region_overhead_ns", region_overhead_ns, 0, kMaxLatencyNs, "ns");
  if (model == ComputeModelKind::Table) load_compute_table(table);
}

ComputeModel ComputeModel::flat(double gflops) {
  ComputeModel m;
  m.m_kind = ComputeModelKind::Flat;
  m.m_gflops = gflops;
  return m;
}

ComputeModel ComputeModel::roofline(const ComputeParams& params, double peak_gflops) {
  ComputeModel m;
  m.m_kind = ComputeModelKind::Roofline;
  m.m_gflops = peak_gflops;
  m.m_params = params;
  return m;
}

ComputeModel ComputeModel::table(std::vector<TablePoint> points, std::string origin) {
  ComputeModel m;
  m.m_kind = ComputeModelKind::Table;
  m.m_points = std::move(points);
  m.m_origin = std::move(origin);
  return m;
}

double ComputeModel::ns(const Kernel& kernel, double part, double block) const {
  switch (m_kind) {
    case ComputeModelKind::Flat:
      return part * kernel.flops / m_gflops;
    case ComputeModelKind::Roofline: {
      // A block whose working set fits in the L3 cache stays there from sweep to sweep.
      constexpr double kMib = 1024.0 * 1024.0;
      const bool cached = block * kernel.bytes <= m_params.cache_mib * kMib;
      const double gbps = cached ? m_params.cache_gbps : m_params.memory_gbps;
      return std::max(part * kernel.flops / m_gflops, part * kernel.bytes / gbps) +
             m_params.region_overhead_ns;
    }
    case ComputeModelKind::Table:
      // The table times whole blocks; a part of one takes its share.
      return block > 0 ? table_ns(block) * part / block : 0.0;
  }
  return 0.0;
}

void ComputeModel::check_block(double block) const {
  if (m_kind != ComputeModelKind::Table) return;
  if (block < m_points.front().work || block > m_points.back().work) {
    throw ConfigError("compute.table", fmt::format("\"{}\"", m_origin),
                      fmt::format("a node's block of {} work units lies outside the table's "
                                  "sizes {} .. {}; add rows that cover it",
                                  block, m_points.front().work, m_points.back().work));
  }
}

double ComputeModel::table_ns(double block) const {
  check_block(block);
  const auto above = std::lower_bound(m_points.begin(), m_points.end(), block,
                                      [](const TablePoint& p, double w) { return p.work < w; });
  if (above->work == block) return above->ns;
  const auto below = std::prev(above);
  const double t = (block - below->work) / (above->work - below->work);
  return below->ns + t * (above->ns - below->ns);
}

ComputeModel make_compute_model(const ComputeParams& params, double peak_gflops,
                                double flat_gflops) {
  switch (params.model) {
    case ComputeModelKind::Roofline:
      return ComputeModel::roofline(params, peak_gflops);
    case ComputeModelKind::Table:
      return ComputeModel::table(load_compute_table(params.table), params.table);
    case ComputeModelKind::Flat:
      break;
  }
  return ComputeModel::flat(flat_gflops);
}

}  // namespace angara
