#!/usr/bin/env python3
"""Proves that a change leaves every result byte-identical: a built-in set of runs of angara-sim,
saved once with the build before the change and checked against it with the build after.

  regress/bench/same_results.py save BUILD DIR           every run, every output into DIR/<run>/
  regress/bench/same_results.py check BUILD DIR          the same runs again, compared with DIR
  regress/bench/same_results.py check BUILD DIR --only msgrate_lt --only golden_allreduce_3x3x3
  regress/bench/same_results.py --list                   the runs, each with its config and keys

BUILD is a build directory (or its angara-sim executable), DIR a directory for the saved
outputs; save refuses a DIR that exists and is not empty. Each run writes into a directory of
its own: the results JSON, msgrate's and pingpong's CSV, the statistics' CSVs, a traced run's
VCD with its .gtkw and .stages.txt, and what it printed (stdout.txt, stderr.txt). save keeps
them in DIR/<run>/ and lists the runs and their arguments in DIR/same_results.json; check runs
each again in a temporary directory and compares every file with the saved one:

  - the results JSON without the keys that differ between two runs of one config and seed:
    wall_seconds (wall time) and angara_tlm (the build's version and git revision), wherever
    they are (docs/RESULTS.md); the rest token for token, numbers as written (1 is not 1.0),
    and keys in their order;
  - stdout.txt with every wall time of the summary line ("0.04 s" before "->", ";" or the end)
    taken out;
  - a .gtkw with the temporary directory its paths start with taken out;
  - everything else byte for byte: CSVs (none carries a wall-time column), VCDs and their
    .stages.txt (no date in them), stderr.txt.

check prints a table, run | same, or different with the first difference (the file and the
JSON key path or line number, saved and new value) and how many of the run's files differ.
A run whose arguments changed since the save, a file only one side has, and a run that fails
count as different.
Exit status: 0 every run the same, 1 a run different, 2 a usage or setup error (a run that
fails in save included).

The set (--list): the 28 runs of the layout change's results set (synthetic traffic, hardware
collectives, msgrate and pingpong, software collectives, SpMV and heat on the subnet and over
messages, an allreduce with its waveform), then what the router touches besides: the default
run in LT without buffers, uniform 8x8x8 at 0.17 for 20000 cycles in AT, LT and LT without
buffers (compare_builds.py's runs), adaptive routing, wormhole switching, a fat tree, links
failing during the run, SpMV's allgather with LT trains of 16, network statistics (their CSVs),
each in AT and LT, and every golden scenario of regress/golden/scenarios with its VCD. Long
configs are cut short (cycles, repetitions, sizes): a run takes a few seconds at most (the
longest, golden_nightly_broadcast_8x8x8x2 as the golden test runs it, about 5 s), the whole set
about 20 s of processor time. --jobs runs several at once (results do not depend on it).

The fidelity matrix (regress/fidelity/fidelity.py --matrix full) is not in the set: compare it
by running it with each build (--build BUILD --out TABLE.md, whatever its exit status) and
diffing the two tables, which carry no wall times.
"""

import argparse
import concurrent.futures
import difflib
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compare_builds import RUN_KEYS, results_only  # what two runs of one config may differ in

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = "same_results.json"
# The summary line's wall times: "13278 cycles in 0.04 s -> results.json", "...; 0.05 s -> ...".
WALL = re.compile(r"\b\d+\.\d\d s(?=;| ->|$)", re.MULTILINE)
# A .gtkw names its VCD, itself and its stage names by absolute path, inside the temporary
# directory the run was made in (TMP_PREFIX).
TMP_PREFIX = "same_results-"
RUN_DIR = re.compile(rb'/[^\s"]*/' + TMP_PREFIX.encode() + rb'[^/\s"]+/')
TIMEOUT = 600  # seconds a run may take before it counts as failed

SPMV = ['workload.kind="spmv"', "topology.dims=[2,2,2,2]", "app.rows=102400"]
HEAT = ['workload.kind="heat"', "topology.dims=[4,4,2]"]
SOFTWARE = "configs/software_allreduce_8x8x8.toml"
# compare_builds.py's UNIFORM: 8x8x8 at half of saturation, 2000 + 18000 cycles.
UNIFORM = ["topology.dims=[8,8,8]", "traffic.rate=0.17", "sim.warmup_cycles=2000",
           "sim.measure_cycles=18000"]
# Worms longer than the buffers (17 flits into 8), several VCs, near saturation.
WORMHOLE = ['router.switching="wormhole"', "router.buffer_flits=8", "router.vcs=4",
            "traffic.rate=0.05"]
GOLDEN = ["allreduce_3x3x3", "beside_p2p_4x4x4", "broadcast_2x2x2_leaf", "broadcast_2x2x2_root",
          "credit_stall_4x4", "nightly_16_trees_4x4x4", "nightly_allreduce_8x8x8x2",
          "nightly_broadcast_8x8x8x2"]


def runs():
    """The built-in set: name -> (config relative to the repository or None, --set keys)."""
    at, lt = ['sim.mode="at"'], ['sim.mode="lt"']
    nobuf = lt + ["sim.lt_buffers=false"]
    s = {
        # The layout change's 28 runs.
        "synthetic_at": (None, at),
        "synthetic_lt": (None, lt),
        "dateline_8x8_at": ("configs/torus_8x8_dateline.toml", at),
        "torus4d_lt": ("configs/torus_4d_2x2x2x2.toml", lt),
        "coll_allreduce_at": ("configs/collective_allreduce_8x8x8.toml", at),
        "coll_allreduce_lt": ("configs/collective_allreduce_8x8x8.toml", lt),
        "coll_own_tree_at": ("configs/collective_own_tree.toml", at),
        "coll_bcast_lt": (None, lt + ['workload.kind="collective"', 'workload.op="broadcast"',
                                      "topology.dims=[8,8,8]"]),
        "coll_bg_at": (None, at + ['workload.kind="collective"', 'workload.op="allreduce"',
                                   "workload.background_rate=0.2"]),
        "msgrate_at": ("configs/msgrate.toml", at),
        "msgrate_lt": ("configs/msgrate.toml", lt),
        "pingpong_at": ("configs/pingpong.toml", at),
        "pingpong_lt": ("configs/pingpong.toml", lt),
        "software_allreduce_at": (SOFTWARE, at),
        "software_allreduce_lt": (SOFTWARE, lt),
        "software_bcast_binomial_at": (SOFTWARE, at + ['workload.op="broadcast"',
                                                       'workload.algorithm="binomial"']),
        "software_allgather_rd_lt": (SOFTWARE, lt + ['workload.op="allgather"',
                                                     'workload.algorithm="recursive_doubling"',
                                                     "workload.payload_flits=4",
                                                     "workload.repetitions=2"]),
        "software_subnet_allreduce_at": (SOFTWARE, at + ['workload.algorithm="subnet"']),
        "software_subnet_allgather_lt": (SOFTWARE, lt + ['workload.op="allgather"',
                                                         'workload.algorithm="subnet"',
                                                         "workload.repetitions=2"]),
    }
    for app, keys, algorithms in (("spmv", SPMV, ("subnet", "recursive_doubling")),
                                  ("heat", HEAT, ("subnet", "tree"))):
        for algorithm in algorithms:
            short = "rd" if algorithm == "recursive_doubling" else algorithm
            for mode, mode_keys in (("at", at), ("lt", lt)):
                s[f"{app}_{short}_{mode}"] = (None, mode_keys + keys
                                              + [f'workload.algorithm="{algorithm}"'])
    s["golden_allreduce_3x3x3"] = ("regress/golden/scenarios/allreduce_3x3x3.toml", [])
    # What the router touches besides.
    s["synthetic_lt_nobuf"] = (None, nobuf)
    s["uniform_8x8x8_at"] = (None, at + UNIFORM)
    s["uniform_8x8x8_lt"] = (None, lt + UNIFORM)
    s["uniform_8x8x8_lt_nobuf"] = (None, nobuf + UNIFORM)
    for run, config, keys in (
            ("adaptive", None, ['router.routing="adaptive"']),
            ("wormhole", "configs/torus_8x8_dateline.toml", WORMHOLE),
            ("fat_tree", None, ['topology.kind="fat_tree"']),
            ("link_failure", "configs/link_failure.toml", []),
            ("spmv_trains", None, SPMV + ['workload.algorithm="subnet"', "sim.train_packets=16"]),
            ("stats", None, ["stats.network=true"])):
        for mode, mode_keys in (("at", at), ("lt", lt)):
            s[f"{run}_{mode}"] = (config, mode_keys + keys)
    for scenario in GOLDEN[1:]:  # GOLDEN[0], allreduce_3x3x3, is among the 28 above
        s[f"golden_{scenario}"] = (f"regress/golden/scenarios/{scenario}.toml", [])
    return s


RUNS = runs()


def fail(message):
    print(f"same_results: {message}", file=sys.stderr)
    sys.exit(2)


def executable(build: str) -> Path:
    path = Path(build)
    if path.is_dir():
        path = path / "sc_main" / "angara-sim"
    if not path.is_file():
        fail(f"{build}: no angara-sim there (give a build directory or the executable; build it "
             "first, README)")
    return path.resolve()


def arguments(name):
    """A run's arguments after `angara-sim run`, the config relative to the repository."""
    config, keys = RUNS[name]
    args = [config] if config else []
    for key in keys:
        args += ["--set", key]
    return args + ["--out", "results.json", "--quiet"]


def version(sim: Path):
    done = subprocess.run([str(sim), "--version"], capture_output=True, text=True)
    return done.stdout.strip() or f"(--version: exit status {done.returncode})"


class Outcome:
    """One run: the directory its files are in, its wall time, or why it failed."""

    def __init__(self, work: Path):
        self.work = work
        self.wall = 0.0
        self.error = None


def run_one(sim: Path, name: str, work: Path) -> Outcome:
    work.mkdir(parents=True)
    outcome = Outcome(work)
    args = arguments(name)
    if RUNS[name][0]:
        args[0] = str(ROOT / args[0])
    start = time.perf_counter()
    try:
        done = subprocess.run([str(sim), "run"] + args, cwd=work, capture_output=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        outcome.error = f"no end after {TIMEOUT} s"
        return outcome
    outcome.wall = time.perf_counter() - start
    (work / "stdout.txt").write_bytes(done.stdout)
    (work / "stderr.txt").write_bytes(done.stderr)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
        outcome.error = f"exit status {done.returncode}" + (f": {lines[0]}" if lines else "")
    return outcome


class Number(str):
    """A JSON number as written, so that 1 and 1.0 differ."""


def load_results(path: Path):
    try:
        value = json.loads(path.read_text(), parse_int=Number, parse_float=Number)
    except ValueError as e:
        return None, f"not JSON ({e})"
    return results_only(value), None


def shown(value):
    text = value if isinstance(value, Number) else json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def first_difference(a, b, path=""):
    """Where two results first differ: (key path, saved, new), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return (f"{path}/{key}", shown(a[key]) if key in a else "missing",
                        shown(b[key]) if key in b else "missing")
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        if list(a) != list(b):
            return (f"{path or '/'} (key order)", ",".join(a), ",".join(b))
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{i}")
            if found:
                return found
        if len(a) != len(b):
            return f"{path or '/'} (length)", str(len(a)), str(len(b))
        return None
    if type(a) is type(b) and a == b:
        return None
    return path or "/", shown(a), shown(b)


def line_difference(a: bytes, b: bytes):
    """The first line two texts differ on: (line number, saved, new), or None."""
    if a == b:
        return None
    left, right = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(left, right)):
        if x != y:
            break
    else:
        i = min(len(left), len(right))

    x = left[i] if i < len(left) else b""
    y = right[i] if i < len(right) else b""
    column = next((c for c, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    start = max(0, column - 20)

    def line(lines):
        if i >= len(lines):
            return "end of file"
        text = lines[i][start:start + 40].decode(errors="replace")
        return repr(("..." if start else "") + text + ("..." if len(lines[i]) > start + 40
                                                          else ""))
    return i + 1, line(left), line(right)


def file_difference(saved: Path, new: Path):
    """How one output differs from its saved copy (a phrase), or None."""
    name = saved.name
    if name.endswith(".json"):
        (a, error_a), (b, error_b) = load_results(saved), load_results(new)
        if error_a or error_b:
            return f"{name}: {'saved' if error_a else 'new'} file {error_a or error_b}"
        found = first_difference(a, b)
        return f"{name} {found[0]}: {found[1]} saved, {found[2]} now" if found else None
    a, b = saved.read_bytes(), new.read_bytes()
    if name == "stdout.txt":
        a, b = (WALL.sub("<wall> s", t.decode(errors="replace")).encode() for t in (a, b))
    if name.endswith(".gtkw"):
        a, b = (RUN_DIR.sub(b"<tmp>/", t) for t in (a, b))
    found = line_difference(a, b)
    return f"{name} line {found[0]}: {found[1]} saved, {found[2]} now" if found else None


def order(name):
    """Results first, then tables, waveforms, the rest, what the run printed last."""
    if name.endswith(".json"):
        return 0, name
    if name.endswith(".csv"):
        return 1, name
    if name.endswith(".vcd"):
        return 2, name
    return (4 if name in ("stdout.txt", "stderr.txt") else 3), name


def compare(saved_dir: Path, new_dir: Path):
    """'same', or 'different: ...' with the first difference and how many files differ."""
    saved = {p.name for p in saved_dir.iterdir() if p.is_file()}
    new = {p.name for p in new_dir.iterdir() if p.is_file()}
    differences = []
    for name in sorted(saved | new, key=order):
        if name not in new:
            differences.append(f"{name} saved, not written now")
        elif name not in saved:
            differences.append(f"{name} written now, not saved")
        else:
            found = file_difference(saved_dir / name, new_dir / name)
            if found:
                differences.append(found)
    if not differences:
        return "same"
    total = len(saved | new)
    return (f"different: {differences[0]} ({len(differences)} of {total} files "
            f"differ)" if total > 1 else f"different: {differences[0]}")


def cell(text):
    return text.replace("|", "\\|")


def chosen(args):
    names = args.only or list(RUNS)
    for name in names:
        if name not in RUNS:
            near = difflib.get_close_matches(name, RUNS, n=1)
            fail(f"--only {name}: no such run" + (f"; did you mean {near[0]}?" if near else "")
                 + " (--list shows them)")
    return [name for name in RUNS if name in names]


def run_all(sim, names, jobs, work, report):
    """Runs `names` with `jobs` at once in work/<name>; report(name, outcome) in the set's
    order as each is known."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(run_one, sim, name, work / name) for name in names}
        for name in names:
            report(name, futures[name].result())


def save(sim, names, directory: Path, jobs):
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        fail(f"{directory}: exists and is not an empty directory; remove it or choose another "
             "DIR")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"{directory}: cannot make it ({e.strerror}); choose another DIR")
    failed = []
    start = time.perf_counter()
    print(f"build: {sim} ({version(sim)})\nsaving into: {directory}\n")
    print("| run | saved | wall s |\n| --- | --- | --- |")

    def report(name, outcome):
        if outcome.error:
            failed.append(name)
            print(f"| {name} | failed: {cell(outcome.error)} | - |", flush=True)
            return
        files = sorted((p for p in outcome.work.iterdir() if p.is_file()),
                       key=lambda p: order(p.name))
        target = directory / name
        target.mkdir()
        for p in files:
            shutil.move(str(p), target / p.name)
        print(f"| {name} | {', '.join(p.name for p in files)} | {outcome.wall:.2f} |",
              flush=True)

    with tempfile.TemporaryDirectory(prefix=TMP_PREFIX) as tmp:
        run_all(sim, names, jobs, Path(tmp), report)
    manifest = {"build": str(sim), "version": version(sim),
                "runs": {name: arguments(name) for name in names if name not in failed}}
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"\n{len(names) - len(failed)} of {len(names)} runs saved in "
          f"{time.perf_counter() - start:.1f} s")
    if failed:
        fail(f"{len(failed)} runs failed with {sim}: {', '.join(failed)}; {directory} lacks "
             "them (fix the build or leave them out with --only, then save into an empty DIR)")


def check(sim, names, directory: Path, jobs):
    manifest_file = directory / MANIFEST
    if not manifest_file.is_file():
        fail(f"{directory}: no {MANIFEST} there, so not a directory same_results.py save wrote "
             "(save into it first)")
    try:
        manifest = json.loads(manifest_file.read_text())
        saved_runs = manifest["runs"]
    except (ValueError, KeyError, TypeError):
        fail(f"{manifest_file}: not the list of runs save writes (save again into an empty "
             "DIR)")
    start = time.perf_counter()
    print(f"build: {sim} ({version(sim)})\nsaved: {directory} ({manifest.get('version', '?')})\n")
    print("| run | result | wall s |\n| --- | --- | --- |")
    different = []

    def report(name, outcome):
        if name not in saved_runs or not (directory / name).is_dir():
            verdict = f"different: not saved in {directory} (save with this set)"
        elif saved_runs[name] != arguments(name):
            verdict = ("different: the run changed since the save (saved: "
                       f"{' '.join(saved_runs[name])})")
        elif outcome.error:
            verdict = f"different: the run failed now: {outcome.error}"
        else:
            verdict = compare(directory / name, outcome.work)
        if verdict != "same":
            different.append(name)
        wall = f"{outcome.wall:.2f}" if not outcome.error else "-"
        print(f"| {name} | {cell(verdict)} | {wall} |", flush=True)
        shutil.rmtree(outcome.work, ignore_errors=True)

    with tempfile.TemporaryDirectory(prefix=TMP_PREFIX) as tmp:
        run_all(sim, names, jobs, Path(tmp), report)
    elapsed = time.perf_counter() - start
    if different:
        print(f"\n{len(different)} of {len(names)} runs different ({elapsed:.1f} s): "
              f"{', '.join(different)}")
        sys.exit(1)
    print(f"\nall {len(names)} runs the same ({elapsed:.1f} s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["save", "check"],
                        help="save: run the set and keep its outputs in DIR; check: run it "
                             "again and compare with DIR")
    parser.add_argument("build", nargs="?", metavar="BUILD",
                        help="the build to run (build directory or angara-sim)")
    parser.add_argument("dir", nargs="?", metavar="DIR", help="where the outputs are saved")
    parser.add_argument("--jobs", type=int, default=2, metavar="N",
                        help="runs at once (default 2)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="this run only (repeatable; --list names them)")
    parser.add_argument("--list", action="store_true",
                        help="list the runs, each with its arguments, and stop")
    args = parser.parse_args()
    if args.list:
        for name in chosen(args):
            print(f"{name:33}{shlex.join(['angara-sim', 'run'] + arguments(name)[:-3])}")
        return
    if not args.command or not args.dir:
        fail("give save or check, then BUILD and DIR (or --list; --help)")
    if args.jobs < 1:
        fail(f"--jobs {args.jobs}: give at least 1")
    names = chosen(args)
    sim = executable(args.build)
    (save if args.command == "save" else check)(sim, names, Path(args.dir), args.jobs)


if __name__ == "__main__":
    main()
