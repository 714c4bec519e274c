#!/usr/bin/env python3
"""What splitting one AT run over MPI ranks buys: wall time at 1 and R ranks, the exchanges'
cost per window, and peak memory per rank, runs alternated, best of --runs.

usage: parallel_bench.py ANGARA_SIM [--ranks 2] [--runs 3] [--case NAME ...] [--mpirun PATH]
                         [--keep DIR]
Cases (default: uniform16):
  uniform16   AT uniform traffic on 16x16x16 at 0.2 flits/node/cycle, 20000 cycles
  allreduce   one allreduce on 16x16x32 (mostly idle windows)
  idle8       8x8x8 with no traffic for 100000 cycles: the cost of a window with nothing in it
  spmv        AT SpMV by recursive doubling on 4x4x2x2 (the study's rows), one iteration
Each rank is bound to a core (--bind-to core); run it on a quiet machine with a core per rank.
--keep DIR keeps each case's best results as DIR/CASE-1.json and DIR/CASE-R.json (the inputs of
scaling_model.py).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CASES = {
    "uniform16": ["--set", "topology.dims=[16,16,16]", "--set", "traffic.rate=0.2",
                  "--set", "sim.warmup_cycles=5000", "--set", "sim.measure_cycles=15000",
                  "--set", "sim.drain_cycles=0"],
    "allreduce": ["--set", "topology.dims=[16,16,32]", "--set", "workload.kind=\"collective\"",
                  "--set", "workload.op=\"allreduce\"", "--set", "workload.repetitions=1"],
    "idle8": ["--set", "topology.dims=[8,8,8]", "--set", "traffic.rate=0.0000001",
              "--set", "sim.warmup_cycles=0", "--set", "sim.measure_cycles=100000",
              "--set", "sim.drain_cycles=0"],
    "spmv": ["--set", "topology.dims=[4,4,2,2]", "--set", "workload.kind=\"spmv\"",
             "--set", "workload.algorithm=\"recursive_doubling\"", "--set", "collective.trees=16",
             "--set", "workload.repetitions=1"],
}

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("sim")
parser.add_argument("--ranks", type=int, default=2)
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--case", action="append", choices=sorted(CASES))
parser.add_argument("--mpirun", default="mpirun")
parser.add_argument("--keep", help="directory to keep the best runs' results in")
args = parser.parse_args()
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def one(case, ranks, work, run):
    out = f"{work}/{case}-{ranks}-{run}.json"
    command = [args.sim, "run", "-q"] + CASES[case] + ["--out", out]
    if ranks > 1:
        command = [args.mpirun, "-np", str(ranks), "--bind-to", "core"] + command
    else:
        command = ["/usr/bin/time", "-f", "%M"] + command
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"parallel_bench: {' '.join(command)}: exit {done.returncode}: {done.stderr}")
    with open(out) as f:
        results = json.load(f)
    if ranks == 1:
        memory = int(done.stderr.strip().splitlines()[-1]) / 1024.0
        return {"wall": wall, "memory": [memory], "each": [], "out": out}
    each = results["ranks"]["each"]
    return {"wall": wall, "memory": [e["peak_memory_mib"] for e in each], "each": each, "out": out}


with tempfile.TemporaryDirectory() as work:
    for case in args.case or ["uniform16"]:
        best = {}
        for run in range(args.runs):
            for ranks in (1, args.ranks):  # alternated
                r = one(case, ranks, work, run)
                if ranks not in best or r["wall"] < best[ranks]["wall"]:
                    best[ranks] = r
        one_rank, split = best[1], best[args.ranks]
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for ranks, r in best.items():
                shutil.copy(r["out"], os.path.join(args.keep, f"{case}-{ranks}.json"))
        print(f"## {case}: best of {args.runs}, wall time of the whole launch")
        print(f"1 rank: {one_rank['wall']:.2f} s, peak memory {one_rank['memory'][0]:.0f} MiB")
        print(f"{args.ranks} ranks: {split['wall']:.2f} s, speed-up {one_rank['wall'] / split['wall']:.2f}x")
        print("| rank | kernel s | exchange s | exchanges | us per exchange | records | bytes | peak MiB | of 1 rank |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for rank, e in enumerate(split["each"]):
            per = 1e6 * e["exchange_seconds"] / max(1, e["exchanges"])
            print(f"| {rank} | {e['kernel_seconds']:.2f} | {e['exchange_seconds']:.2f} | {e['exchanges']} "
                  f"| {per:.1f} | {e['records_sent']} | {e['bytes_sent']} | {e['peak_memory_mib']:.0f} "
                  f"| {e['peak_memory_mib'] / one_rank['memory'][0]:.2f} |")
        print()
