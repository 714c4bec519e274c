#include "platform/experiments/app_experiment.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "models/core/config_error.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/tree_checks.h"
#include "platform/machine/node_machine.h"
#include "workloads/apps/app_programs.h"

namespace angara {

double AppResult::mean_iteration() const {
  if (iteration.empty()) return 0;
  return static_cast<double>(std::accumulate(iteration.begin(), iteration.end(), Cycle{0})) /
         static_cast<double>(iteration.size());
}

namespace {

// The longest node's compute per iteration, `ns` (of `kernel`'s units), over every iteration must
// fit the cycles a run may simulate (kMaxRunCycles); named by the key that sets the compute rate.
void check_compute_fits(const Config& config, const Kernel& kernel, double ns) {
  const double cycles = ns * config.router.clock_mhz / 1000.0 * config.workload.repetitions;
  if (cycles <= static_cast<double>(kMaxRunCycles)) return;
  const bool heat = config.workload.kind == WorkloadKind::Heat;
  std::string key;
  std::string value;
  switch (config.compute.model) {
    case ComputeModelKind::Flat:
      key = heat ? "app.heat_gflops" : "app.spmv_mflops";
      value = fmt::format("{}", heat ? config.app.heat_gflops : config.app.spmv_mflops);
      break;
    case ComputeModelKind::Roofline: {
      // The roof that holds it down: the flop rate or the memory bandwidth.
      const bool flops =
          kernel.flops / config.node.gflops >= kernel.bytes / config.compute.memory_gbps;
      key = flops ? "node.gflops" : "compute.memory_gbps";
      value = fmt::format("{}", flops ? config.node.gflops : config.compute.memory_gbps);
      break;
    }
    case ComputeModelKind::Table:
      key = "compute.table";
      value = fmt::format("\"{}\"", config.compute.table);
      break;
  }
  throw ConfigError(key, value,
                    fmt::format("a node's compute takes {:.3g} ns an iteration, {:.3g} cycles "
                                "over workload.repetitions = {}: more than the {} cycles a run "
                                "may simulate; raise the rate or lower {} or the repetitions",
                                ns, cycles, config.workload.repetitions, kMaxRunCycles,
                                heat ? "app.grid" : "app.rows"));
}

// Split over MPI ranks, each node's records are on its own rank and zero on the others: the sums.
void join_over_ranks(AppLog& log, const Ranks& ranks) {
  if (!ranks.parallel()) return;
  std::vector<std::uint64_t> fields;
  for (const auto& node : log) {
    for (const IterationRecord& i : node)
      fields.insert(fields.end(), {i.end, i.compute, i.collective});
  }
  ranks.sum(fields);
  std::size_t at = 0;
  for (auto& node : log) {
    for (IterationRecord& i : node) {
      i = {fields[at], fields[at + 1], fields[at + 2]};
      at += 3;
    }
  }
}

}  // namespace

AppResult run_app_experiment(const Config& config, const ProgressSink& progress) {
  return record_run<AppResult>(config, [&](AppResult& r) {
    const int iterations = config.workload.repetitions;
    const int nodes = config.topology.node_count();
    const bool heat = config.workload.kind == WorkloadKind::Heat;
    const HeatGrid grid(config.app.grid, nodes);
    const ComputeModel compute =
        make_compute_model(config.compute, config.node.gflops,
                           heat ? config.app.heat_gflops : config.app.spmv_mflops / 1000.0);
    // A table that does not cover some node's block fails here, before anything is built; so
    // does a compute too long for the run's integer time (a run of it would never end).
    const Kernel kernel =
        heat ? heat_kernel(config.app.flops_per_cell) : spmv_kernel(config.app.nonzeros_per_row);
    const std::uint64_t rows_per_node = config.app.rows / static_cast<std::uint64_t>(nodes);
    double longest_ns = 0;
    for (int n = 0; n < nodes; ++n) {
      const double block = heat ? static_cast<double>(grid.width(n) * grid.height(n))
                                : static_cast<double>(rows_per_node);
      compute.check_block(block);
      longest_ns = std::max(longest_ns, compute.ns(kernel, block, block));
    }
    check_compute_fits(config, kernel, longest_ns);
    NodeMachine machine(config);
    // Every rank takes part in the collectives: a transit node would leave its value out of
    // heat's allreduce (on tree 0) or its block out of spmv's allgather over the subnet.
    if (heat) {
      check_every_node_takes_part(config, machine.system().trees(), machine.torus(), "heat", 0, 0);
    } else if (config.workload.algorithm == SoftwareAlgorithm::Subnet) {
      check_every_node_takes_part(config, machine.system().trees(), machine.torus(),
                                  "spmv over the subnet", 0, kMaxTrees - 1);
    }
    AppLog log(static_cast<std::size_t>(nodes),
               std::vector<IterationRecord>(static_cast<std::size_t>(iterations)));
    std::vector<std::int64_t> expected_max(static_cast<std::size_t>(iterations));
    if (heat) {
      for (int k = 0; k < iterations; ++k) {
        std::int64_t m = heat_sigma(0, k);
        for (NodeId n = 1; n < static_cast<NodeId>(nodes); ++n) m = std::max(m, heat_sigma(n, k));
        expected_max[k] = m;
      }
      r.px = grid.px;
      r.py = grid.py;
      r.flops_per_iteration =
          static_cast<double>(config.app.grid[0]) * config.app.grid[1] * config.app.flops_per_cell;
    } else {
      r.flops_per_iteration =
          2.0 * config.app.nonzeros_per_row * static_cast<double>(config.app.rows);
    }
    // Every program sends from this block: sized for the longest send before any starts.
    const SendBlock outgoing(
        heat ? grid.largest_face_bytes(nodes)
             : static_cast<std::size_t>(config.app.rows / static_cast<std::uint64_t>(nodes)) * 8);
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      if (!machine.local(n)) continue;
      const NodeContext ctx{n,
                            machine.host(n),
                            nodes,
                            machine.torus(),
                            machine.system().trees(),
                            config.router.clock_mhz,
                            config.workload,
                            config.app,
                            compute,
                            outgoing};
      machine.load(n, heat ? heat_program(ctx, grid, expected_max, log) : spmv_program(ctx, log));
    }
    const auto y_arrived = [&](NodeId n) {
      return spmv_y_arrived(machine.host(n), nodes, rows_per_node, config.workload.algorithm,
                            machine.now());
    };
    // An iteration is done when every node (of this rank) has ended it; SpMV's next one has got
    // as far as its nodes' share of y has arrived.
    machine.run(progress, [&] {
      std::uint64_t done = static_cast<std::uint64_t>(iterations);
      for (NodeId n = 0; n < log.size(); ++n) {
        if (!machine.local(n)) continue;
        const auto& node = log[n];
        std::uint64_t ended = 0;
        while (ended < node.size() && node[ended].end != 0) ++ended;
        done = std::min(done, ended);
      }
      double part = 0;
      int counted = 0;
      for (NodeId n = 0; n < log.size() && !heat; ++n) {
        if (!machine.local(n)) continue;
        const YArrived y = y_arrived(n);
        const double in =
            static_cast<double>(y.so_far) - static_cast<double>(done * y.per_iteration);
        part += std::clamp(in / static_cast<double>(std::max<std::uint64_t>(y.per_iteration, 1)),
                           0.0, 1.0);
        ++counted;
      }
      return WorkDone{
          "iteration", done, static_cast<std::uint64_t>(iterations),
          counted > 0 && done < static_cast<std::uint64_t>(iterations) ? part / counted : 0.0};
    });
    // Each iteration brought each node what the progress lines take an iteration's y to be.
    for (NodeId n = 0; n < log.size() && !heat; ++n) {
      if (!machine.local(n)) continue;
      const YArrived y = y_arrived(n);
      if (y.so_far != y.per_iteration * static_cast<std::uint64_t>(iterations)) {
        throw std::logic_error(fmt::format("node {}: {} of y arrived in {} iterations, {} expected",
                                           n, y.so_far, iterations, y.per_iteration * iterations));
      }
    }
    join_over_ranks(log, machine.system().ranks());

    Cycle previous = 0;
    double collective_sum = 0;
    for (int k = 0; k < iterations; ++k) {
      Cycle end = 0;
      for (const auto& node : log) {
        end = std::max(end, node[k].end);
        r.compute = std::max(r.compute, node[k].compute);
        r.collective_max = std::max(r.collective_max, node[k].collective);
        collective_sum += static_cast<double>(node[k].collective);
      }
      r.iteration.push_back(end - previous);
      previous = end;
    }
    r.collective_mean = collective_sum / (static_cast<double>(nodes) * iterations);
    r.messages = machine.messages_delivered();
    r.split = machine.split_record();
    r.contention = machine.system().contention();
    return machine.now();
  });
}

namespace {

const char* app_name(const Config& c) {
  return c.workload.kind == WorkloadKind::Heat ? "heat" : "spmv";
}

double gflops(const AppResult& r) {
  return r.flops_per_iteration / (r.mean_iteration() * r.config.router.cycle_ns());
}

}  // namespace

nlohmann::ordered_json to_json(const AppResult& r) {
  const double us = r.config.router.cycle_ns() / 1000.0;
  nlohmann::ordered_json j;
  j["workload"] = app_name(r.config);
  j["algorithm"] = algorithm_name(r.config);
  j["nodes"] = r.nodes;
  j["iterations"] = r.iteration.size();
  j["iteration_us"] = r.mean_iteration() * us;
  nlohmann::ordered_json each = nlohmann::ordered_json::array();
  for (Cycle c : r.iteration) each.push_back(static_cast<double>(c) * us);
  j["per_iteration_us"] = each;
  j["compute_us"] = static_cast<double>(r.compute) * us;
  j["collective_us"] = r.collective_mean * us;
  j["collective_max_us"] = static_cast<double>(r.collective_max) * us;
  j["flops_per_iteration"] = r.flops_per_iteration;
  j["gflops"] = gflops(r);
  if (r.config.workload.kind == WorkloadKind::Heat) {
    j["cells"] = static_cast<std::int64_t>(r.config.app.grid[0]) * r.config.app.grid[1];
    j["process_grid"] = {r.px, r.py};
  } else {
    j["rows"] = r.config.app.rows;
  }
  j["messages_delivered"] = r.messages;
  add_run(j, r);
  return j;
}

std::string summary_line(const AppResult& r) {
  const double us = r.config.router.cycle_ns() / 1000.0;
  return with_wall_time(
      r,
      fmt::format("{}, {} ({}) on {} nodes: {:.2f} us per iteration over {} (compute {:.2f} "
                  "us, collective {:.2f} us mean), {:.2f} GFlop/s, {} messages",
                  torus_name(r.config), app_name(r.config), algorithm_name(r.config), r.nodes,
                  r.mean_iteration() * us, r.iteration.size(), static_cast<double>(r.compute) * us,
                  r.collective_mean * us, gflops(r), r.messages));
}

}  // namespace angara
