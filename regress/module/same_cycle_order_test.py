#!/usr/bin/env python3
"""AT's results do not depend on the order in which SystemC runs same-time processes.

Each case runs as usual, with the nodes' modules made in a shuffled order
(ANGARA_TEST_CONSTRUCTION_SEED), and with a random half of the routers' and endpoints' wake-ups
sent through an extra delta cycle (ANGARA_TEST_JITTER_SEED), which reorders the processes of a
time and adds wake-ups that must change nothing; the results must be the same, wall time aside. This is what lets a run split over MPI ranks,
each with its own kernel and its own subset of the modules, give the one-process results.

usage: same_cycle_order_test.py ANGARA_SIM
"""
import json
import os
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
AT = ["-q", "--set", "sim.mode=\"at\""]
CASES = [
    ("uniform 0.3 on 8x8x8", ["--set", "topology.dims=[8,8,8]", "--set", "traffic.rate=0.3",
                              "--set", "sim.measure_cycles=1500"]),
    ("adaptive, saturated, 4x4x4", ["--set", "router.routing=\"adaptive\"",
                                    "--set", "traffic.rate=0.9", "--set", "sim.measure_cycles=1000"]),
    ("allreduce on 16 trees of 8x8x8, overlapped, beside background traffic",
     ["--set", "topology.dims=[8,8,8]", "--set", "workload.kind=\"collective\"", "--set", "workload.op=\"allreduce\"",
      "--set", "collective.trees=16", "--set", "workload.all_trees=true",
      "--set", "workload.overlap=true", "--set", "workload.repetitions=20",
      "--set", "workload.background_rate=0.1"]),
    ("msgrate on 4x4 (CPUs, PCIe, message API)",
     ["--set", "topology.dims=[4,4]", "--set", "workload.kind=\"msgrate\""]),
    ("SpMV over the subnet on 2x2x2x2", ["--set", "topology.dims=[2,2,2,2]",
                                         "--set", "workload.kind=\"spmv\"",
                                         "--set", "workload.algorithm=\"subnet\"",
                                         "--set", "app.rows=4096"]),
    ("20 allreduces at once on a 4x4 torus (credit stalls)",
     ["--set", "topology.dims=[4,4]", "--set", "workload.kind=\"collective\"",
      "--set", "workload.op=\"allreduce\"", "--set", "workload.repetitions=20",
      "--set", "workload.overlap=true"]),
]
failures = []
with tempfile.TemporaryDirectory() as work:
    for name, args in CASES:
        results = []
        for seed in (None, "construction 1", "jitter 1", "jitter 2"):
            env = dict(os.environ)
            if seed:
                knob, value = seed.split()
                env[f"ANGARA_TEST_{knob.upper()}_SEED"] = value
            out = f"{work}/r.json"
            done = subprocess.run([SIM, "run"] + AT + args + ["--out", out], env=env,
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                failures.append(f"{name}, shuffle {seed}: exit {done.returncode}: {done.stderr}")
                break
            with open(out) as f:
                r = json.load(f)
            r.pop("wall_seconds")
            results.append(r)
        else:
            differ = [k for k in results[0] if any(r.get(k) != results[0][k] for r in results)]
            if differ:
                failures.append(f"{name}: shuffled construction or jitter changes {differ}")
            else:
                print(f"same: {name}")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
