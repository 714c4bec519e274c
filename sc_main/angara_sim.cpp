// angara-sim: runs one experiment of the angara-tlm model and writes its results, or draws a
// timing diagram of one block from one.

#include <fmt/format.h>

#include <array>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <systemc>

#include "models/core/config_error.h"
#include "models/core/packet_ledger.h"
#include "platform/config/config_loader.h"
#include "platform/experiments/diagram.h"
#include "platform/experiments/lt_validity.h"
#include "platform/experiments/partition_run.h"
#include "platform/experiments/registry.h"
#include "platform/experiments/results_json.h"
#include "platform/experiments/trace_files.h"
#include "platform/machine/cut.h"
#include "platform/parallel/ranks.h"
#include "platform/version/version.h"
#include "platform/waveform/vcd.h"

namespace po = boost::program_options;

namespace {

enum ExitCode { kOk = 0, kUsage = 1, kBadConfig = 2, kModelFailure = 3, kDiffer = 4 };

constexpr const char* kUsageText =
    "usage: angara-sim run [CONFIG.toml] [--mode at|lt] [--set section.key=value ...]\n"
    "                      [--out results.json] [--quiet]\n"
    "       angara-sim diagram [CONFIG.toml] --node X,Y,Z --block BLOCK [--set ...]\n"
    "                          [--from CYCLE --to CYCLE] [--out diagram.svg]\n"
    "       angara-sim config [CONFIG.toml] [--mode at|lt] [--set ...] [--partition I]\n"
    "       angara-sim vcd-diff EXPECTED.vcd ACTUAL.vcd\n"
    "       angara-sim --help | --version | COMMAND --help\n"
    "\n"
    "Simulates a multi-dimensional torus (or a fat tree or Cayley graph) of Angara-class\n"
    "routers (SystemC/TLM-2.0, AT or LT) and writes its results: synthetic traffic, the\n"
    "collective subnet's operations, or the nodes' CPUs running message rate, ping-pong,\n"
    "software collectives, SpMV or heat (workload.kind synthetic, collective, msgrate,\n"
    "pingpong, software, spmv, heat). Without CONFIG the built-in default runs: a 4x4x4\n"
    "torus, uniform traffic at 0.3 flits/node/cycle, Table 1 parameters (500 MHz routers,\n"
    "75 Gbit/s links, 80 ns link latency). Examples: configs/.\n"
    "diagram draws one packet's passage through one block (e.g. vcup_xp, the VCUp buffer of\n"
    "input port +X) of one node as an SVG timing diagram (AT). config prints the configuration\n"
    "CONFIG and --set resolve to, every key, as a TOML file that loads back to the same run;\n"
    "with --partition I, the standalone run of a partitioned machine's partition I.\n"
    "vcd-diff compares two waveforms signal by signal, as the golden regression does.\n";

// The options every command shares: CONFIG, --set, --quiet, and --mode where both modes run.
po::options_description common_options(const char* title, bool with_mode = true) {
  po::options_description options(title);
  options.add_options()("help,h", "show this help, with every config key")(
      "set,s", po::value<std::vector<std::string>>()->composing(),
      "override one config key, TOML syntax: --set topology.dims=[8,8] --set traffic.rate=0.5 "
      "(repeatable; applied after CONFIG)")("quiet,q", "no progress lines on stderr");
  if (with_mode) {
    options.add_options()(
        "mode,m", po::value<std::string>(),
        "timing mode: at (approximately timed: flit by flit, credits and buffers cycle by "
        "cycle) or lt (loosely timed: fast, each packet's path booked at once in calendars of "
        "links and buffers; its results say where they may differ from AT); same as --set "
        "sim.mode=...");
  }
  return options;
}

// " (rank 2 of 4)" in a run split over MPI ranks, else nothing.
std::string rank_text() {
  const angara::Ranks& ranks = angara::Ranks::world();
  return ranks.parallel() ? fmt::format(" (rank {} of {})", ranks.rank(), ranks.size()) : "";
}

// Parses the command line and runs `body` with the loaded config, turning errors into exit codes.
// Split over MPI ranks, every rank parses and runs; rank 0 alone speaks and writes files.
int command(const char* name, int argc, char** argv, const po::options_description& options,
            const std::function<int(angara::Config&, const po::variables_map&)>& body) {
  po::options_description all;
  all.add(options).add_options()("config", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  const angara::Ranks& ranks = angara::Ranks::world();
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    // --help before notify(), which would refuse it for lack of the required options.
    if (vm.count("help")) {
      std::cout << kUsageText << '\n'
                << options << "\nconfig keys (section.key, default, meaning; values):\n"
                << angara::config_keys_help() << '\n';
      return kOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    if (ranks.root())
      std::cerr << "angara-sim " << name << ": " << e.what() << "\n\n" << kUsageText;
    return kUsage;
  }
  auto overrides =
      vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (vm.count("mode")) overrides.push_back("sim.mode=\"" + vm["mode"].as<std::string>() + "\"");
  try {
    angara::Config config =
        vm.count("config") ? angara::load_config_file(vm["config"].as<std::string>(), overrides)
                           : angara::load_config("", "built-in default", overrides);
    if (vm.count("quiet") || !ranks.root()) config.sim.progress = false;
    return body(config, vm);
  } catch (const angara::ConfigError& e) {  // the same on every rank: rank 0 says it
    if (ranks.root()) std::cerr << "angara-sim: bad config: " << e.what() << '\n';
    return kBadConfig;
  } catch (const angara::SharedModelError& e) {  // found by every rank together
    if (ranks.root()) {
      std::cerr << "angara-sim: model failure: " << e.what() << "\nno results written\n";
    }
    return kModelFailure;
  } catch (const angara::ModelError& e) {
    std::cerr << "angara-sim: model failure" << rank_text() << ": " << e.what()
              << "\nno results written\n";
    angara::Ranks::abort(kModelFailure);  // the other ranks would wait for this one
    return kModelFailure;
  } catch (const std::exception& e) {
    std::cerr << "angara-sim: error" << rank_text() << ": " << e.what() << "\nno results written\n";
    angara::Ranks::abort(kModelFailure);
    return kModelFailure;
  }
}

int run(int argc, char** argv) {
  auto options = common_options("run options");
  options.add_options()(
      "out,o", po::value<std::string>()->default_value("results.json"),
      "where to write the JSON results (written whole or not at all); "
      "msgrate and pingpong also write a CSV per size beside it (.csv), [stats] network "
      "= true its tables (.links.csv, .vcs.csv, .routers.csv)")(
      "grid,g", po::value<std::string>(),
      "started by mpirun or srun as R MPI ranks: the boxes of the torus, one per rank, as boxes "
      "per dimension, e.g. 2x1x1 (default: the grid that cuts the fewest links; see "
      "docs/PARALLEL.md)");
  return command("run", argc, argv, options, [](angara::Config& config, const auto& vm) {
    const std::string out = vm["out"].template as<std::string>();
    angara::Ranks& ranks = angara::Ranks::world();
    if (vm.count("grid")) ranks.request_grid(vm["grid"].template as<std::string>());
    // Before the run: a target that must not be written, or two outputs naming one file.
    std::vector<std::pair<std::string, std::filesystem::path>> outputs{{"--out", out}};
    for (const std::string& extension : angara::side_file_extensions(config)) {
      outputs.emplace_back(fmt::format("--out (its {} file)", extension),
                           std::filesystem::path(out).replace_extension(extension));
    }
    if (config.trace.on()) {
      for (const auto& output : angara::trace_outputs(config)) outputs.push_back(output);
    }
    angara::check_output_paths(outputs);
    angara::check_replaces_results("--out", out);
    const angara::ProgressSink progress = [](const std::string& line) {
      std::cerr << "angara-sim: " << line << '\n';
    };
    const auto warn_unused = [&](const angara::Config& run, const std::string& where) {
      if (!ranks.root()) return;
      for (const auto& key : angara::unused_keys(run)) {
        std::cerr << "angara-sim: warning: " << where << key << " is not used by workload.kind = "
                  << angara::config_to_json(run)["workload"]["kind"] << " (ignored)\n";
      }
    };
    // The results, then LT's warning where its verdict on the run is not ok.
    const auto write = [&](const angara::RunOutput& output) {
      angara::write_run_output(output, out, std::cout);
      if (const auto warning = angara::lt_warning(output.json)) {
        std::cerr << "angara-sim: warning: " << *warning << '\n';
      }
    };
    angara::check_parallel(config, ranks);
    if (!config.partitions.empty()) {
      for (std::size_t i = 0; i < config.partitions.size(); ++i) {
        warn_unused(config.partition_config(i), fmt::format("partition[{}].", i));
      }
      write(angara::run_partitions(config, progress));
      return kOk;
    }
    warn_unused(config, "");
    const angara::ExperimentEntry& experiment = angara::experiments().find(config.workload.kind);
    const angara::RunOutput output = experiment.run(config, progress);
    if (ranks.root()) write(output);
    return kOk;
  });
}

int config_command(int argc, char** argv) {
  auto options = common_options("config options");
  options.add_options()("partition,p", po::value<int>(),
                        "print partition I's standalone config ([[partition]] I, counted from "
                        "0): the run whose results are that partition's");
  return command("config", argc, argv, options, [](angara::Config& config, const auto& vm) {
    if (vm.count("partition")) {
      const int index = vm["partition"].template as<int>();
      if (index < 0 || static_cast<std::size_t>(index) >= config.partitions.size()) {
        throw angara::ConfigError(
            "--partition", std::to_string(index),
            config.partitions.empty()
                ? std::string("the config has no [[partition]]")
                : fmt::format("the config has partitions 0 to {}", config.partitions.size() - 1));
      }
      config = config.partition_config(static_cast<std::size_t>(index));
    }
    std::cout << angara::config_to_toml(config, angara::KeySet::Every);
    return kOk;
  });
}

std::vector<int> parse_node(const std::string& text) {
  std::vector<int> coords;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t used = 0;
    coords.push_back(std::stoi(text.substr(pos), &used));
    pos += used + 1;
  }
  return coords;
}

int diagram(int argc, char** argv) {
  auto options = common_options("diagram options", false);  // AT only
  options.add_options()("node", po::value<std::string>()->required(),
                        "the node's coordinates, e.g. 1,0,0")(
      "block", po::value<std::string>()->required(),
      "vcup_<port>, vcdown_<port>, vc_<port>, link_<port>, credits_<port> (port xp, xm, yp, "
      "..., local), pegroup_fifo, broadcaster, reducer or credit_block")(
      "from", po::value<angara::Cycle>(), "first cycle drawn (default: 2 before the packet)")(
      "to", po::value<angara::Cycle>(), "last cycle drawn (default: 3 after it left)")(
      "out,o", po::value<std::string>()->default_value("diagram.svg"), "the SVG file");
  return command("diagram", argc, argv, options, [](angara::Config& config, const auto& vm) {
    angara::DiagramRequest request;
    try {
      request.node = parse_node(vm["node"].template as<std::string>());
    } catch (const std::exception&) {
      throw angara::ConfigError("--node", vm["node"].template as<std::string>(),
                                "coordinates separated by commas, e.g. 1,0,0");
    }
    request.block = vm["block"].template as<std::string>();
    if (vm.count("from")) request.from = vm["from"].template as<angara::Cycle>();
    if (vm.count("to")) request.to = vm["to"].template as<angara::Cycle>();
    angara::check_diagram(config, request);
    config.trace.nodes = {request.node};
    config.validate();
    const std::string out = vm["out"].template as<std::string>();
    angara::check_output_path("--out", out);
    angara::write_file(angara::draw_diagram(config, request), out, "--out");
    std::cout << "wrote " << out << '\n';
    return kOk;
  });
}

int vcd_diff(int argc, char** argv) {
  po::options_description options("vcd-diff options");
  options.add_options()("help,h", "show this help")(
      "expected", po::value<std::string>()->required(), "the approved VCD file")(
      "actual", po::value<std::string>()->required(), "the VCD file to check against it");
  po::positional_options_description positional;
  positional.add("expected", 1).add("actual", 1);
  po::variables_map vm;
  constexpr const char* kText =
      "usage: angara-sim vcd-diff EXPECTED.vcd ACTUAL.vcd\n\n"
      "Compares two VCD files signal by signal (by full name, e.g. router_0_0_0.vcup_xp.stage),\n"
      "the model's or an RTL simulator's: times in each file's $timescale, values four-state\n"
      "(0 1 x z) and of any width. Exit status 0: the same signals with the same values at every\n"
      "time; 4: they differ, and the first difference is printed: the signal that differs first\n"
      "in time, the time and both values, or the signals one file has and the other lacks;\n"
      "1: usage; 2: a file cannot be read or parsed (a directory, a FIFO, a file cut short, a\n"
      "real or string value, a time that goes back). docs/WAVEFORMS.md has the details.\n";
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(),
              vm);
    if (vm.count("help")) {
      std::cout << kText << '\n' << options;
      return kOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "angara-sim vcd-diff: " << e.what() << "\n\n" << kText;
    return kUsage;
  }
  std::array<angara::Vcd, 2> vcd;
  for (int i = 0; i < 2; ++i) {
    const std::string path = vm[i == 0 ? "expected" : "actual"].as<std::string>();
    try {
      vcd[i] = angara::read_vcd(path);
    } catch (const angara::ConfigError& e) {
      std::cerr << "angara-sim vcd-diff: " << (i == 0 ? "EXPECTED" : "ACTUAL") << ": " << e.what()
                << '\n';
      return kBadConfig;
    } catch (const std::exception& e) {
      std::cerr << "angara-sim vcd-diff: " << (i == 0 ? "EXPECTED" : "ACTUAL") << " file '" << path
                << "': " << e.what() << '\n';
      return kBadConfig;
    }
  }
  if (const auto diff = angara::compare_vcd(vcd[0], vcd[1])) {
    std::cout << *diff << '\n';
    return kDiffer;
  }
  std::cout << "same: " << vcd[0].signals.size() << " signals\n";
  return kOk;
}

}  // namespace

int sc_main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "run") return run(argc - 1, argv + 1);
  if (command == "diagram") return diagram(argc - 1, argv + 1);
  if (command == "config") return config_command(argc - 1, argv + 1);
  if (command == "vcd-diff") return vcd_diff(argc - 1, argv + 1);
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsageText;
    return kOk;
  }
  if (command == "--version" || command == "version") {
    std::cout << fmt::format("angara-sim {} (git {})\n", angara::version(), angara::git_revision());
    return kOk;
  }
  std::cerr << (command.empty() ? "angara-sim: no command given\n\n"
                                : fmt::format("angara-sim: unknown command '{}'\n\n", command))
            << kUsageText;
  return kUsage;
}

// Our own entry point, so that SystemC's banner does not mix into the summary on stdout, and
// the process joins the other MPI ranks of its run when a launcher started it as one.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  try {
    angara::Ranks::start(&argc, &argv);
  } catch (const std::exception& e) {
    std::cerr << "angara-sim: " << e.what() << '\n';
    return kUsage;
  }
  const int status = sc_core::sc_elab_and_sim(argc, argv);
  angara::Ranks::stop();
  return status;
}
