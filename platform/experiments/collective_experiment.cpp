#include "platform/experiments/collective_experiment.h"

#include <fmt/format.h>

#include "models/core/config_error.h"

#include "platform/experiments/results_json.h"
#include "platform/experiments/trace_files.h"
#include "platform/experiments/tree_checks.h"
#include "platform/machine/sim_runner.h"
#include "platform/machine/system.h"
#include "platform/machine/tree_plan.h"
#include "workloads/collective/collective_workload.h"

namespace angara {
CollectiveResult run_collective_experiment(const Config& config, const ProgressSink& progress) {
  return record_run<CollectiveResult>(config, [&](CollectiveResult& r) {
    const auto& wl = config.workload;
    const Topology topology(config.topology);
    const Torus& torus = *topology.torus();
    std::vector<CollectiveWorkload::Target> targets;
    for (Tree& tree : plan_trees(config, torus)) {
      if (!wl.all_trees && tree.id != wl.tree) continue;
      const NodeId source = wl.source.empty() ? tree.root : config.topology.node_at(wl.source);
      const NodeId destination =
          wl.destination.empty() ? tree.root : config.topology.node_at(wl.destination);
      check_processors(config, tree, torus);
      if (wl.op == CollectiveOp::Broadcast && !tree.rows[source].pe) {
        throw ConfigError("workload.source", torus.format(source),
                          fmt::format("a broadcast starts at a processor of tree {} (a member "
                                      "with pe), not at a transit node, a failed node or outside "
                                      "it",
                                      tree.id));
      }
      if (wl.op == CollectiveOp::Reduce &&
          !(tree.rows[destination].member && tree.rows[destination].pe)) {
        throw ConfigError(wl.destination.empty() ? "collective.transit" : "workload.destination",
                          torus.format(destination),
                          fmt::format("a reduce's result goes to a processor of tree {} (a "
                                      "member with pe), not to a transit node, a failed node or "
                                      "outside it",
                                      tree.id));
      }
      targets.push_back({std::move(tree), source, destination});
    }
    r.root = targets.front().tree.root;
    r.trees = static_cast<int>(targets.size());
    CollectiveWorkload workload(config.workload, config.traffic, config.sim.seed, topology,
                                std::move(targets), config.collective.reduces_in_flight);
    System system(config, workload.make_sources(), workload);
    workload.set_waker([&system](NodeId n) { system.wake_endpoint(n); });
    if (config.sim.mode == SimMode::At) workload.count_reports_from_next_cycle();
    const Ranks& ranks = system.ranks();
    // The operations' deliveries over the whole machine, before anything reads them.
    auto count_deliveries = [&] {
      std::vector<std::uint64_t> received = workload.received_here(), done = workload.done_here();
      ranks.sum(received);
      ranks.max(done);
      workload.take_totals(received, done);
    };
    const auto incomplete = [&] {
      std::uint64_t open = 0;
      for (int k = 0; k < workload.operations(); ++k) open += !workload.complete(k);
      return open;
    };

    return run_traced(system, config.trace, [&] {
      // The watchdog sees collective deliveries and background packets alike (each rank counts its
      // own; the open operations are counted once, on rank 0).
      SimRunner runner(
          system, config.sim, progress,
          {[&] { return workload.delivered_count() + system.ledger().delivered_count(); },
           [&] {
             count_deliveries();
             return system.ledger().in_flight() + (ranks.root() ? incomplete() : 0);
           }});
      runner.count([&] {
        return WorkDone{"operation", workload.operations() - incomplete(),
                        static_cast<std::uint64_t>(workload.operations())};
      });
      // An operation is over for the next to start once the kernel has passed the cycle at which
      // AT's endpoints took its last delivery: an AT router hands a packet to its endpoint as it
      // starts it on the ejection channel. LT knows of deliveries sooner, in the call that sends
      // them (a whole operation at its first cycle), and would start the next one on top of it.
      const ChannelTiming ejection(config.endpoint, config.router.clock_mhz);
      const Cycle ejection_to_tail =
          ejection.latency + ejection.serialization(kHeaderFlits + wl.payload_flits);
      std::vector<Cycle> starts;
      auto all_done = [&] {
        count_deliveries();
        Cycle taken = 0;
        for (int k = 0; k < workload.operations(); ++k) {
          if (!workload.complete(k)) return false;
          taken = std::max(taken, starts[k] + workload.completion_cycles(k) - ejection_to_tail);
        }
        return taken < runner.now();
      };
      auto run_operations = [&] {
        runner.run_until(kNever, "collective", all_done);
        // LT's kernel may fall idle before that cycle (nothing left but what it already knows):
        // time goes on in whole slices, those at which AT's runner looked.
        while (!all_done()) runner.run_until(runner.now() + runner.slice(), "collective", all_done);
      };
      for (int k = 0; k < wl.repetitions; ++k) {
        starts.push_back(runner.now());
        workload.start(k, starts.back());
        if (!wl.overlap) run_operations();
      }
      run_operations();
      // Background traffic stops with the last operation; what is in flight is delivered and
      // counted.
      system.stop_creating();
      runner.run_until(kNever, "drain", [] { return false; });
      system.check_conservation();
      count_deliveries();
      r.split = runner.split_record();
      r.contention = system.contention();

      r.pe_nodes = workload.pe_nodes();
      for (int k = 0; k < workload.operations(); ++k)
        r.completion.push_back(workload.completion_cycles(k));
      r.deliveries = ranks.sum(workload.delivered_count());
      r.background_packets = ranks.sum(system.ledger().delivered_count());
      r.results_digest = workload.results_digest();
      r.rtl = system.rtl_stats();
      r.rtl_vcup = system.rtl_vcup_stats();
      r.capped_sources =
          static_cast<int>(ranks.sum(static_cast<std::uint64_t>(system.capped_sources())));
      return runner.now();
    });
  });
}

nlohmann::ordered_json to_json(const CollectiveResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = "collective";
  j["op"] = op_name(r.config);
  j["nodes"] = r.nodes;
  j["trees"] = r.trees;
  j["pe_nodes"] = r.pe_nodes;
  j["root"] = r.root;
  add_completion(j, r.completion, r.config);
  j["deliveries_checked"] = r.deliveries;
  j["background_packets_delivered"] = r.background_packets;
  j["results_digest"] = digest_hex(r.results_digest);
  if (r.config.rtl.reducer != BlockImpl::Model) {
    j["rtl_reducer_checked"] = {{"cycles", r.rtl.cycles},
                                {"heads", r.rtl.heads},
                                {"results", r.rtl.results},
                                {"data_words", r.rtl.data_words}};
  }
  if (r.config.rtl.vcup != BlockImpl::Model) {
    j["rtl_vcup_checked"] = {{"cycles", r.rtl_vcup.cycles},
                             {"packets", r.rtl_vcup.packets},
                             {"queued", r.rtl_vcup.queued},
                             {"copies", r.rtl_vcup.copies},
                             {"frees", r.rtl_vcup.frees}};
  }
  add_run(j, r);
  return j;
}

std::string summary_line(const CollectiveResult& r) {
  return with_wall_time(
      r, fmt::format("{}, {} of {} flits on tree {} ({} processors): {}, {} deliveries checked",
                     torus_name(r.config), op_name(r.config), r.config.workload.payload_flits,
                     r.config.workload.tree, r.pe_nodes, completion_summary(r.completion, r.config),
                     r.deliveries) +
             (r.capped_sources > 0 ? "; " + capped_note(r) : ""));
}

}  // namespace angara
