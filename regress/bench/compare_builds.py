#!/usr/bin/env python3
"""Two builds side by side: the same runs of angara-sim from each, alternated, with the fastest
and slowest wall time of each, the most memory a run of each held (peak resident set), whether
their results are the same, and (with --instructions) the instructions each spends, which
callgrind counts the same on every run.

  regress/bench/compare_builds.py OLD_BUILD NEW_BUILD            uniform traffic, AT and both LTs
  regress/bench/compare_builds.py OLD NEW --config run.toml      your own run(s) instead
  regress/bench/compare_builds.py OLD NEW --runs 5 --instructions
  regress/bench/compare_builds.py OLD NEW --cpu 1                 every run on core 1

OLD_BUILD and NEW_BUILD are build directories (or angara-sim executables). Built in: uniform
traffic on 8x8x8 at 0.17 flits/node/cycle (half of saturation), 20000 cycles, in AT, LT without
buffers and LT with buffers. A build that rejects a run (a key it does not know, say) shows the
reason and the rest goes on. Wall times on a shared machine move by tens of percent from run to
run: read the fastest, and the instructions where the two are close. Nor are a virtual
machine's cores always equally fast: --cpu keeps every run on one of them.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UNIFORM = """[topology]
dims = [8, 8, 8]
[traffic]
rate = 0.17
[sim]
warmup_cycles = 2000
measure_cycles = 18000
progress = false
"""
BUILT_IN = {
    "uniform 8x8x8 0.17, AT": UNIFORM + 'mode = "at"\n',
    "uniform 8x8x8 0.17, LT": UNIFORM + 'mode = "lt"\nlt_buffers = false\n',
    "uniform 8x8x8 0.17, LT with buffers": UNIFORM + 'mode = "lt"\nlt_buffers = true\n',
}
# What may differ between two runs with the same results: the time taken, and which build ran.
RUN_KEYS = {"wall_seconds", "angara_tlm"}


def executable(build: str) -> Path:
    path = Path(build)
    if path.is_dir():
        path = path / "sc_main" / "angara-sim"
    if not path.is_file():
        sys.exit(f"compare_builds: {build}: no angara-sim there (give a build directory or the "
                 "executable; build it first, README)")
    return path


def results_only(value):
    if isinstance(value, dict):
        return {k: results_only(v) for k, v in value.items() if k not in RUN_KEYS}
    if isinstance(value, list):
        return [results_only(v) for v in value]
    return value


def first_difference(a, b, path=""):
    """Where two results first differ (a key path), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{i}")
            if found:
                return found
        return None
    return None if a == b else path or "/"


class Run:
    """One build's runs of one config."""

    def __init__(self):
        self.walls = []
        self.peak_kb = 0  # the largest peak resident set of its runs
        self.results = None
        self.error = None
        self.instructions = None


def pinned(cpu):
    """What a child runs before angara-sim: nothing, or keep it on core cpu."""
    return None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))


def run_once(sim: Path, config: Path, out: Path, run: Run, cpu):
    # Waited for with wait4(), which gives the child's own peak resident set.
    with tempfile.TemporaryFile("w+") as said:
        start = time.perf_counter()
        child = subprocess.Popen([str(sim), "run", str(config), "--out", str(out), "--quiet"],
                                 stdout=said, stderr=said, preexec_fn=pinned(cpu))
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        lines = said.read().strip().splitlines()
    if child.returncode != 0:
        run.error = lines[0] if lines else f"exit status {child.returncode}"
        return
    run.walls.append(wall)
    run.peak_kb = max(run.peak_kb, usage.ru_maxrss)
    run.results = results_only(json.loads(out.read_text()))


def count_instructions(sim: Path, config: Path, work: Path, run: Run):
    log = work / "callgrind.log"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={work / 'cg.out'}",
                    f"--log-file={log}", str(sim), "run", str(config), "--out",
                    str(work / "cg.json"), "--quiet"], capture_output=True, check=False)
    found = re.search(r"Collected : (\d+)", log.read_text() if log.exists() else "")
    run.instructions = int(found.group(1)) if found else None


def seconds(walls):
    return f"{min(walls):.3f} s / {max(walls):.3f} s" if walls else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the build to compare against (directory or angara-sim)")
    parser.add_argument("new", help="the build being measured (directory or angara-sim)")
    parser.add_argument("--config", action="append", default=[], metavar="FILE",
                        help="an angara-sim config to run instead of the built-in ones "
                             "(repeatable)")
    parser.add_argument("--runs", type=int, default=3, metavar="N",
                        help="runs of each build per config, alternated (default 3)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each build's instructions once with callgrind "
                             "(valgrind; about 60x a run's time)")
    parser.add_argument("--cpu", type=int, metavar="N",
                        help="run every timed run on core N only (default: wherever the "
                             "kernel puts it), so that no run gains or loses by the core "
                             "it lands on")
    args = parser.parse_args()
    allowed = sorted(os.sched_getaffinity(0))
    if args.cpu is not None and args.cpu not in allowed:
        sys.exit(f"compare_builds: --cpu {args.cpu}: this process may run on cores "
                 f"{', '.join(map(str, allowed))} only; give one of them")
    if args.runs < 1:
        sys.exit(f"compare_builds: --runs {args.runs}: give at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("compare_builds: --instructions needs valgrind (apt-get install valgrind)")
    builds = {"old": executable(args.old), "new": executable(args.new)}

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        configs = {}
        for file in args.config:
            if not Path(file).is_file():
                sys.exit(f"compare_builds: --config {file}: no such file")
            configs[file] = Path(file)
        if not configs:
            for i, (name, text) in enumerate(BUILT_IN.items()):
                configs[name] = work / f"built_in_{i}.toml"
                configs[name].write_text(text)

        print(f"old: {builds['old']}\nnew: {builds['new']}")
        print(f"timed runs on core {args.cpu}\n" if args.cpu is not None else "")
        print("| run | old, fastest / slowest | new, fastest / slowest | new / old | results |"
              " old peak memory | new peak memory |"
              + (" old instructions | new instructions | new / old |" if args.instructions
                 else ""))
        print("| --- | --- | --- | --- | --- | --- | --- |"
              + (" --- | --- | --- |" if args.instructions else ""))
        for name, config in configs.items():
            runs = {side: Run() for side in builds}
            for k in range(args.runs):
                for side, sim in builds.items():
                    if runs[side].error is None:
                        run_once(sim, config, work / f"{side}_{k}.json", runs[side],
                                 args.cpu)
            if args.instructions:
                for side, sim in builds.items():
                    if runs[side].error is None:
                        count_instructions(sim, config, work, runs[side])
            old, new = runs["old"], runs["new"]
            ratio = (f"{min(new.walls) / min(old.walls):.2f}x" if old.walls and new.walls
                     else "-")
            if old.error or new.error:
                same = "; ".join(f"{side} rejected it: {runs[side].error}" for side in builds
                                 if runs[side].error)
            else:
                differ = first_difference(old.results, new.results)
                same = f"different, first at {differ}" if differ else "the same"
            row = (f"| {name} | {seconds(old.walls)} | {seconds(new.walls)} | {ratio} | {same} |"
                   + "".join(f" {r.peak_kb / 1024:.1f} MiB |" if r.walls else " - |"
                             for r in (old, new)))
            if args.instructions:
                counts = [r.instructions for r in (old, new)]
                row += "".join(f" {c / 1e9:.3f}e9 |" if c else " - |" for c in counts)
                row += f" {counts[1] / counts[0]:.3f}x |" if all(counts) else " - |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
