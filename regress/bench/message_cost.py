#!/usr/bin/env python3
"""What one message costs as the machine grows: the published study's SpMV allgather by recursive
doubling (LT with buffers, trains of 16, y timing-only; every node's share of y goes out in 4 KB
sends) on tori of 64 to 4096 nodes, each build's wall time per delivered message beside its cost
at the smallest machine, its peak memory and, optionally, the instructions it spends a message.

  regress/bench/message_cost.py BUILD                       one build
  regress/bench/message_cost.py OLD_BUILD NEW_BUILD         side by side, runs alternated
  regress/bench/message_cost.py BUILD --nodes 64 1024 8192 --rows 2048000 --runs 1
  regress/bench/message_cost.py BUILD --instructions 1024   callgrind up to 1024 nodes

A BUILD is a build directory or an angara-sim executable. Wall time is the fastest of --runs
runs, elaboration included; the per-message figure divides it by the messages delivered. The
rows are fixed, so the messages grow with the machine (np x rows x 8 / 4096).
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import Run, count_instructions, executable, run_once  # noqa: E402

# The study's 4D tori (regress/paper/spmv.toml) by node count.
DIMS = {16: [2, 2, 2, 2], 32: [4, 2, 2, 2], 64: [4, 4, 2, 2], 128: [4, 4, 4, 2],
        256: [4, 4, 4, 4], 512: [8, 4, 4, 4], 1024: [8, 8, 4, 4], 2048: [8, 8, 8, 4],
        4096: [8, 8, 8, 8], 8192: [16, 8, 8, 8]}

CONFIG = """[topology]
dims = {dims}
[workload]
kind = "spmv"
algorithm = "recursive_doubling"
repetitions = 1
[app]
rows = {rows}
[sim]
mode = "lt"
lt_buffers = true
train_packets = 16
progress = false
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+", metavar="BUILD",
                        help="build directories or angara-sim executables (the first is the "
                             "one compared against)")
    parser.add_argument("--nodes", type=int, nargs="+", default=[64, 256, 1024, 4096],
                        metavar="N", help=f"machine sizes, of {', '.join(map(str, DIMS))} "
                                          "(default 64 256 1024 4096)")
    parser.add_argument("--rows", type=int, default=512000,
                        help="the matrix's rows (default 512000: 4096 nodes in about a minute "
                             "and a half)")
    parser.add_argument("--runs", type=int, default=2, metavar="N",
                        help="timed runs of each build per size, alternated (default 2)")
    parser.add_argument("--instructions", type=int, default=0, metavar="MAX_NODES",
                        help="also count each build's instructions with callgrind (valgrind, "
                             "about 60x a run's time) on the sizes up to MAX_NODES nodes")
    args = parser.parse_args()
    unknown = [n for n in args.nodes if n not in DIMS]
    if unknown:
        sys.exit(f"message_cost: --nodes {unknown[0]}: the sizes are "
                 f"{', '.join(map(str, DIMS))} (the study's tori)")
    if args.runs < 1:
        sys.exit(f"message_cost: --runs {args.runs}: give at least 1")
    if args.rows < 1:
        sys.exit(f"message_cost: --rows {args.rows}: give at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("message_cost: --instructions needs valgrind (apt-get install valgrind)")
    builds = [executable(b) for b in args.builds]
    for i, sim in enumerate(builds):
        print(f"build {i + 1}: {sim}")
    print(f"recursive doubling, {args.rows} rows, LT with buffers, trains of 16; wall time the "
          f"fastest of {args.runs}\n")
    header = ["nodes", "messages"]
    for i in range(len(builds)):
        header += [f"{i + 1}: us/message", f"{i + 1}: x smallest", f"{i + 1}: peak MB"]
        if args.instructions:
            header.append(f"{i + 1}: instructions/message")
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    smallest = [None] * len(builds)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for nodes in sorted(args.nodes):
            config = work / f"rd{nodes}.toml"
            config.write_text(CONFIG.format(dims=DIMS[nodes], rows=args.rows))
            runs = [Run() for _ in builds]
            for k in range(args.runs):
                for i, sim in enumerate(builds):
                    if runs[i].error is None:
                        run_once(sim, config, work / f"{i}_{k}.json", runs[i], None)
            if args.instructions and nodes <= args.instructions:
                for i, sim in enumerate(builds):
                    if runs[i].error is None:
                        count_instructions(sim, config, work, runs[i])
            row = [str(nodes), "-"]
            for i, run in enumerate(runs):
                if run.error:
                    row += [f"rejected: {run.error}", "-", "-"] + (["-"] if args.instructions
                                                                   else [])
                    continue
                count = run.results["messages_delivered"]
                row[1] = f"{count:,}"
                cost = min(run.walls) / count * 1e6
                smallest[i] = smallest[i] or cost
                row += [f"{cost:.2f}", f"{cost / smallest[i]:.1f}", f"{run.peak_kb / 1024:.0f}"]
                if args.instructions:
                    row.append(f"{run.instructions / count:,.0f}" if run.instructions else "-")
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
