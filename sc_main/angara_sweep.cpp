// angara-sweep: many angara-sim experiments from one sweep file, on local cores or as a Slurm
// job array, collected into one CSV and plotted.

#include <unistd.h>

#include <fmt/format.h>
#include <boost/program_options.hpp>
#include <deque>
#include <iostream>

#include "models/core/config_error.h"
#include "platform/files/output_file.h"
#include "platform/sweep/slurm_job.h"
#include "platform/sweep/sweep_collect.h"
#include "platform/sweep/sweep_files.h"
#include "platform/sweep/sweep_plan.h"
#include "platform/sweep/sweep_plot.h"
#include "platform/sweep/sweep_runner.h"
#include "platform/version/version.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

enum ExitCode { kOk = 0, kUsageError = 1, kBadInput = 2, kPointsFailed = 3 };

// More simulations at once than this is a typo, not a machine (each is a process with its own
// SystemC kernel).
constexpr long long kMaxJobs = 4096;

constexpr const char* kUsage =
    "usage: angara-sweep plan SWEEP.toml\n"
    "       angara-sweep run SWEEP.toml... --out DIR [-j N]\n"
    "       angara-sweep slurm SWEEP.toml --out DIR [--partition P] [--time T] [--chunk K]\n"
    "                          [--max-running N] [--sbatch=OPTION ...] [--collect] [--dry-run]\n"
    "                          [--wait]\n"
    "       angara-sweep collect DIR\n"
    "       angara-sweep plot DIR --x KEY --y FIELD [--series KEY] [--log-x] [--log-y] "
    "[--no-saturated]\n"
    "                         [--title T] -o FIG.png|svg|pdf\n"
    "       angara-sweep --help | --version | COMMAND --help\n"
    "\n"
    "A sweep file is a base config plus axes of config keys (see docs/SWEEPS.md); every point\n"
    "runs as its own angara-sim. run fills the local cores and resumes: points whose results\n"
    "exist for the same config are skipped; several sweeps share one pool of cores, each in\n"
    "DIR/NAME (NAME: its file's name without .toml, and a hash of its directory if two share\n"
    "it); a second runner on one directory is refused. slurm writes DIR/sweep.sbatch, a job\n"
    "array with K points per task, and submits it; resubmitting runs only what is missing.\n"
    "collect writes DIR/results.csv; plot draws it with gnuplot. With [sweep] ranks = R each\n"
    "point is one run over R MPI ranks: under mpirun taking R of run's cores, or on Slurm as a\n"
    "job step of R tasks (srun --mpi=pmix).\n";

struct Command {
  po::options_description options;
  po::positional_options_description positional;
  po::variables_map vm;
};

// Parses argv for one command; returns false (after printing help) when --help was asked.
// `inputs`: how many SWEEP.toml or DIR arguments it takes at most (-1: any number).
bool parse(Command& c, int argc, char** argv, const char* name, int inputs = 1) {
  c.options.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(c.options).add_options()("input", po::value<std::vector<std::string>>());
  c.positional.add("input", inputs);
  po::store(po::command_line_parser(argc, argv).options(all).positional(c.positional).run(), c.vm);
  // --help before notify(), which would refuse it for lack of the required options.
  if (c.vm.count("help")) {
    std::cout << "angara-sweep " << name << "\n\n" << kUsage << '\n' << c.options;
    return false;
  }
  po::notify(c.vm);
  if (!c.vm.count("input")) throw po::error(fmt::format("{}: missing SWEEP.toml or DIR", name));
  return true;
}

std::string input(const Command& c) {
  return c.vm["input"].as<std::vector<std::string>>().front();
}

// --chunk: points per Slurm array task.
int chunk(const Command& c) {
  return angara::parse_count("--chunk", c.vm["chunk"].as<std::string>(), 1,
                             static_cast<long long>(angara::kMaxSweepPoints),
                             "points per array task");
}

int plan_command(int argc, char** argv) {
  Command c{po::options_description("plan options"), {}, {}};
  if (!parse(c, argc, argv, "plan")) return kOk;
  const auto plan = angara::load_sweep(input(c));
  for (const auto& p : plan.points) {
    std::string settings;
    for (const auto& [key, value] : p.settings) settings += fmt::format("  {}={}", key, value);
    fmt::print("{:>4} {}{}\n", p.index, p.name, settings);
  }
  fmt::print("{} points{}\n", plan.points.size(),
             plan.ranks > 1 ? fmt::format(", each one run over {} MPI ranks", plan.ranks) : "");
  return kOk;
}

int report(const angara::RunReport& r, const fs::path& dir) {
  fmt::print("{} points: {} already done, {} run, {} failed, {} beyond saturation -> {}\n", r.total,
             r.skipped, r.ran, r.failed.size(), r.beyond, dir.string());
  for (const auto& point : r.failed) {
    fmt::print(stderr, "failed: {} (see {})\n", point.name, (point.path() / "failed").string());
  }
  return r.failed.empty() ? kOk : kPointsFailed;
}

int run_command(int argc, char** argv) {
  Command c{po::options_description("run options"), {}, {}};
  c.options.add_options()("out,o", po::value<std::string>()->required(),
                          "the sweep directory (created; an existing one is resumed); with "
                          "several sweeps, the directory of their directories")(
      "jobs,j",
      po::value<std::string>()->default_value(std::to_string(sysconf(_SC_NPROCESSORS_ONLN))),
      "cores the points run on (default: all cores): N points at once, or fewer over MPI "
      "ranks ([sweep] ranks = R takes R cores a point)");
  if (!parse(c, argc, argv, "run", -1)) return kOk;
  const int jobs = angara::parse_count("--jobs", c.vm["jobs"].as<std::string>(), 1, kMaxJobs,
                                       "points run at once");
  const auto files = c.vm["input"].as<std::vector<std::string>>();
  const fs::path out = c.vm["out"].as<std::string>();
  // Every sweep file is read and every directory checked before any is made: bad input changes
  // nothing.
  std::vector<angara::SweepPlan> plans;
  plans.reserve(files.size());
  for (const auto& file : files) plans.push_back(angara::load_sweep(file));
  const auto names = angara::sweep_dir_names({files.begin(), files.end()});
  std::deque<angara::SweepDir> dirs;  // the points refer to them
  std::vector<angara::FileLock> locks;
  std::vector<angara::PointDir> points;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& dir = dirs.emplace_back(files.size() == 1 ? out : out / names[i]);
    angara::check_output_path("--out", dir.root() / "manifest.json");
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    fs::create_directories(dirs[i].root());
    locks.push_back(dirs[i].lock());
    dirs[i].prepare(plans[i]);
    for (auto& point : angara::sweep_points(dirs[i])) points.push_back(std::move(point));
  }
  const auto r = angara::run_points(points, jobs, angara::sibling_executable("angara-sim"));
  return report(r, out);
}

int slurm_command(int argc, char** argv) {
  Command c{po::options_description("slurm options"), {}, {}};
  c.options.add_options()("out,o", po::value<std::string>()->required(),
                          "the sweep directory (on a file system the nodes share)")(
      "partition,p", po::value<std::string>()->default_value(""), "Slurm partition")(
      "time,t", po::value<std::string>()->default_value(""), "time limit per array task")(
      "chunk,k", po::value<std::string>()->default_value("1"), "points per array task")(
      "sbatch", po::value<std::vector<std::string>>()->default_value({}, ""),
      "one more sbatch option for the script, e.g. --sbatch=--mem=4G --sbatch=--account=A "
      "(repeatable; give it with '=')")("dry-run", "write the sbatch script, do not submit it")(
      "collect",
      "also submit `angara-sweep collect DIR` to run when the array has ended, with the same "
      "partition, time and --sbatch options")(
      "max-running", po::value<std::string>(),
      "at most this many array tasks at once (the array's %N throttle)")(
      "wait",
      "wait until the whole array has finished (sbatch --wait), and with --collect until "
      "results.csv is written");
  if (!parse(c, argc, argv, "slurm")) return kOk;
  angara::SlurmOptions options;
  options.partition = c.vm["partition"].as<std::string>();
  options.time = c.vm["time"].as<std::string>();
  options.chunk = chunk(c);
  options.wait = c.vm.count("wait") > 0;
  if (c.vm.count("max-running")) {
    options.max_running = angara::parse_count(
        "--max-running", c.vm["max-running"].as<std::string>(), 1, 1000000, "array tasks at once");
  }
  options.extra = c.vm["sbatch"].as<std::vector<std::string>>();
  angara::validate(options);
  const angara::SweepDir dir(fs::absolute(c.vm["out"].as<std::string>()));
  angara::check_script_path(dir.root());
  const auto plan = angara::load_sweep(input(c));
  // After the sweep file is read, so that neither output can be it.
  angara::check_output_paths({{"--out", dir.root() / "manifest.json"},
                              {"--out (its sweep.sbatch)", dir.root() / "sweep.sbatch"}});
  fs::create_directories(dir.root());
  const auto lock = dir.lock();
  dir.prepare(plan);
  const auto script =
      angara::write_sbatch(dir.root(), static_cast<int>(plan.points.size()), plan.ranks, options,
                           angara::sibling_executable("angara-sweep"));
  if (c.vm.count("dry-run")) {
    fmt::print("wrote {} ({} points); submit it with: sbatch {}\n", script.string(),
               plan.points.size(), script.string());
    return kOk;
  }
  const std::string job = angara::submit(script, options);
  fmt::print("submitted job array {} ({} points, {} per task) from {}\n", job, plan.points.size(),
             options.chunk, script.string());
  if (c.vm.count("collect")) {
    const std::string collect = angara::submit_collect(dir.root(), job, options,
                                                       angara::sibling_executable("angara-sweep"));
    fmt::print("submitted job {}: collect into {} after job {}\n", collect,
               (dir.root() / "results.csv").string(), job);
  }
  return kOk;
}

int task_command(int argc, char** argv) {
  Command c{po::options_description("task options (run by the sbatch script)"), {}, {}};
  c.options.add_options()("index", po::value<std::string>()->required(), "array task index")(
      "chunk", po::value<std::string>()->required(), "points per task");
  if (!parse(c, argc, argv, "task")) return kOk;
  const int points_per_task = chunk(c);
  const int index = angara::parse_count("--index", c.vm["index"].as<std::string>(), 0,
                                        static_cast<long long>(angara::kMaxSweepPoints) - 1,
                                        "an array task index");
  const angara::SweepDir dir(input(c));
  const auto points = angara::sweep_points(dir);
  const auto [first, last] =
      angara::task_points(index, points_per_task, static_cast<int>(points.size()));
  const std::vector<angara::PointDir> mine(points.begin() + first, points.begin() + last);
  return report(angara::run_points(mine, 1, angara::sibling_executable("angara-sim"),
                                   angara::RankLauncher::Srun),
                dir.root());
}

int collect_command(int argc, char** argv) {
  Command c{po::options_description("collect options"), {}, {}};
  if (!parse(c, argc, argv, "collect")) return kOk;
  const angara::SweepDir dir(input(c));
  const auto table = angara::collect(dir);
  const fs::path csv = dir.root() / "results.csv";
  angara::write_text(csv, table.csv(), "DIR (its results.csv)");
  const int status = table.column("status");
  const auto ok = std::count_if(table.rows.begin(), table.rows.end(),
                                [&](const auto& row) { return row[status] == "ok"; });
  fmt::print("{} points ({} with results) -> {}\n", table.rows.size(), ok, csv.string());
  return kOk;
}

int plot_command(int argc, char** argv) {
  Command c{po::options_description("plot options"), {}, {}};
  c.options.add_options()("x", po::value<std::string>()->required(),
                          "x column: an axis key or a result field (e.g. nodes, "
                          "traffic.rate)")("y", po::value<std::string>()->required(),
                                           "y column, e.g. latency_ns.mean")(
      "series", po::value<std::string>()->default_value(""), "one line per value of this column")(
      "log-x", "logarithmic x axis (base 2)")("log-y", "logarithmic y axis (base 10)")(
      "no-saturated",
      "leave saturated points out of the lines (past saturation a latency measures the source "
      "queues and the run's length, not the network)")(
      "title", po::value<std::string>()->default_value(""),
      "the figure's title (default: the sweep directory's name)")(
      "output,o", po::value<std::string>()->required(), "the figure, .png, .svg or .pdf");
  if (!parse(c, argc, argv, "plot")) return kOk;
  const angara::SweepDir dir(input(c));
  angara::PlotRequest request;
  request.x = c.vm["x"].as<std::string>();
  request.y = c.vm["y"].as<std::string>();
  request.series = c.vm["series"].as<std::string>();
  request.log_x = c.vm.count("log-x") > 0;
  request.output = c.vm["output"].as<std::string>();
  request.log_y = c.vm.count("log-y") > 0;
  request.title = c.vm["title"].as<std::string>();
  request.saturated = c.vm.count("no-saturated") == 0;
  if (request.title.empty()) request.title = fs::absolute(dir.root()).lexically_normal().filename();
  angara::plot(angara::collect(dir), request);
  fmt::print("wrote {}\n", c.vm["output"].as<std::string>());
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  using Handler = int (*)(int, char**);
  const std::pair<const char*, Handler> commands[] = {
      {"plan", plan_command}, {"run", run_command},         {"slurm", slurm_command},
      {"task", task_command}, {"collect", collect_command}, {"plot", plot_command}};
  for (const auto& [name, handler] : commands) {
    if (command != name) continue;
    try {
      return handler(argc - 1, argv + 1);
    } catch (const po::error& e) {
      std::cerr << "angara-sweep " << name << ": " << e.what() << "\n\n" << kUsage;
      return kUsageError;
    } catch (const angara::ConfigError& e) {
      std::cerr << "angara-sweep: bad input: " << e.what() << '\n';
      return kBadInput;
    } catch (const std::exception& e) {
      std::cerr << "angara-sweep: error: " << e.what() << '\n';
      return kBadInput;
    }
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kOk;
  }
  if (command == "--version" || command == "version") {
    fmt::print("angara-sweep {} (git {})\n", angara::version(), angara::git_revision());
    return kOk;
  }
  std::cerr << (command.empty() ? "angara-sweep: no command given\n\n"
                                : fmt::format("angara-sweep: unknown command '{}'\n\n", command))
            << kUsage;
  return kUsageError;
}
