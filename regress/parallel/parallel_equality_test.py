#!/usr/bin/env python3
"""One run split over MPI ranks gives the one-process run's results, byte for byte.

For every case below, angara-sim runs once as one process and then under mpirun at 2 ranks
and at 4 ranks (oversubscribed on small machines), each on the default grid and on a grid cut
along other dimensions: the results JSON must be the same, wall time and the ranks' own record aside.
Side files (msgrate's and pingpong's per-size CSV, the table over time) must be the same byte for byte. The cases:
synthetic traffic (loads, patterns, deadlock schemes, adaptive routing, faults, a 4D torus), the
subnet's collectives (one tree; 16 overlapping trees with background traffic), and the CPU
programs (msgrate and pingpong with the peer across the cut, software collectives with messages
and over the subnet, SpMV by both algorithms and heat at 16 and 64 nodes). A deadlocking config
(of packets, and of programs) must fail with the same message, and a window longer than the
lookahead (a test-only override) must be caught as a lookahead error, never give other results.

usage: parallel_equality_test.py ANGARA_SIM MPIRUN [--quick]
"""
import json
import os
import subprocess
import sys
import tempfile

SIM, MPIRUN = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv[3:]

BASE = ["--set", "topology.dims=[8,8,8]", "-q"]
COLLECTIVE = ["--set", "workload.kind=\"collective\"", "--set", "workload.repetitions=3"]
SHORT = ["--set", "sim.warmup_cycles=300", "--set", "sim.measure_cycles=800"]
# (name, overrides, rank runs: (ranks, grid or None)): 2 and 4 ranks, each on the default grid
# (cutting along Z) and on another (along X, and X and Y).
R24 = [(2, None), (2, "2x1x1"), (4, None), (4, "2x2x1")]
SYNTHETIC = [
    ("uniform 0.1", ["--set", "traffic.rate=0.1"], R24),
    ("uniform 0.3", ["--set", "traffic.rate=0.3"], R24),
    ("uniform 1.0 (saturated)", ["--set", "traffic.rate=1.0", "--set", "sim.measure_cycles=500",
                                 "--set", "sim.drain_cycles=1000"], R24),
    ("transpose on 4x4x4", ["--set", "topology.dims=[4,4,4]", "--set", "traffic.pattern=\"transpose\"",
                            "--set", "traffic.rate=0.2"], R24),
    ("hotspot", ["--set", "traffic.pattern=\"hotspot\"", "--set", "traffic.rate=0.1"], R24),
    ("bubble", ["--set", "router.deadlock=\"bubble\"", "--set", "traffic.rate=0.3"], R24),
    ("adaptive", ["--set", "router.routing=\"adaptive\"", "--set", "traffic.rate=0.3"], R24),
    ("messages of 3 packets, probes",
     ["--set", "traffic.message_flits=40", "--set", "traffic.rate=0.2",
      "--set", "traffic.probes=4", "--set", "traffic.probe_src=[0,0,0]",
      "--set", "traffic.probe_dst=[7,7,7]"], R24),
    ("links failed from the start",
     ["--set", "faults.random_links=0.02", "--set", "traffic.rate=0.2"], R24),
    ("a link failing mid-run, traffic over time",
     ["--set", "faults.links=[[3,3,3,\"+Z\"]]", "--set", "faults.fail_at_cycle=900",
      "--set", "traffic.rate=0.2", "--set", "stats.interval_cycles=100"], R24),
    ("4D torus", ["--set", "topology.dims=[4,4,2,2]", "--set", "traffic.rate=0.3"],
     [(2, None), (2, "1x1x1x2"), (4, "2x2x1x1"), (4, None)]),
]
# The CPU programs. The peer (3,3,3) of node 0 is on the other rank of every 2-rank grid of 4x4x4.
SOFTWARE = ["--set", "workload.kind=\"software\"", "--set", "topology.dims=[4,4,4]",
            "--set", "workload.repetitions=3"]
PROGRAMS = [
    (f"{kind}, the peer across the cut",
     ["--set", f"workload.kind=\"{kind}\"", "--set", "topology.dims=[4,4,4]",
      "--set", "workload.peer=[3,3,3]", "--set", "workload.messages=20"], R24)
    for kind in ("msgrate", "pingpong")
] + [
    ("software broadcast on tree 0", SOFTWARE, R24),
    ("software broadcast, binomial",
     SOFTWARE + ["--set", "workload.op=\"broadcast\"", "--set", "workload.algorithm=\"binomial\""], R24),
    ("software allgather, recursive doubling",
     SOFTWARE + ["--set", "workload.op=\"allgather\"", "--set", "workload.payload_flits=4",
                 "--set", "workload.algorithm=\"recursive_doubling\""], R24),
    ("software allreduce of 40 KB, ring",
     SOFTWARE + ["--set", "workload.op=\"allreduce\"", "--set", "workload.algorithm=\"ring\"",
                 "--set", "workload.bytes=40960"], R24),
    ("software allreduce of 40 KB, rabenseifner, timing only",
     SOFTWARE + ["--set", "workload.op=\"allreduce\"", "--set", "workload.algorithm=\"rabenseifner\"",
                 "--set", "workload.bytes=40960",
                 "--set", "workload.values=false"], R24),
    ("software allreduce of 40 KB, dimension by dimension",
     SOFTWARE + ["--set", "workload.op=\"allreduce\"", "--set", "workload.algorithm=\"dimensional\"",
                 "--set", "workload.bytes=40960"], R24),
    ("software broadcast of 40 KB, pipelined chain",
     SOFTWARE + ["--set", "workload.op=\"broadcast\"", "--set", "workload.algorithm=\"chain\"",
                 "--set", "workload.bytes=40960", "--set", "workload.segment_bytes=4096"], R24),
    ("software allreduce over the subnet", SOFTWARE + ["--set", "workload.algorithm=\"subnet\""], R24),
    ("software allgather over the subnet",
     SOFTWARE + ["--set", "workload.op=\"allgather\"", "--set", "workload.algorithm=\"subnet\""],
     R24),
] + [
    (f"spmv, {algorithm}, {nodes} nodes",
     ["--set", "workload.kind=\"spmv\"", "--set", f"topology.dims={dims}",
      "--set", f"workload.algorithm=\"{algorithm}\"", "--set", "app.rows=102400"], runs)
    for algorithm in ("recursive_doubling", "subnet")
    for nodes, dims, runs in ((16, "[4,2,2]", R24), (64, "[4,4,4]", R24))
] + [
    (f"heat, {nodes} nodes",
     ["--set", "workload.kind=\"heat\"", "--set", f"topology.dims={dims}",
      "--set", "app.grid=[256,256]", "--set", "workload.repetitions=2"], runs)
    for nodes, dims, runs in ((16, "[4,2,2]", R24), (64, "[4,4,4]", R24))
]
CASES = [(name, SHORT + overrides, runs) for name, overrides, runs in SYNTHETIC] + [
    (f"{op} on one tree", COLLECTIVE + ["--set", f"workload.op=\"{op}\""], R24)
    for op in ("broadcast", "reduce", "allreduce")
] + [
    (f"{op} on 16 trees, overlapped, background traffic",
     COLLECTIVE + ["--set", f"workload.op=\"{op}\"", "--set", "collective.trees=16",
                   "--set", "workload.all_trees=true", "--set", "workload.overlap=true",
                   "--set", "workload.repetitions=20", "--set", "workload.background_rate=0.1"],
     R24)
    for op in ("broadcast", "allreduce")
] + PROGRAMS
# --quick (the default test command): every case at 2 ranks but the applications at 64 nodes
# (their 16-node cases stay), and four of them also on another grid and at 4 ranks; the nightly
# test runs every case at every rank count and grid.
WIDE = ("uniform 0.3", "4D torus", "allreduce on 16 trees, overlapped, background traffic",
        "software allgather over the subnet")
if QUICK:
    CASES = [(name, overrides, runs[:3] if name in WIDE else runs[:1])
             for name, overrides, runs in CASES if "64 nodes" not in name]

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = []


def run(args, out, ranks=None, grid=None, env=ENV):
    command = [SIM, "run"] + args + ["--out", out]
    if grid:
        command += ["--grid", grid]
    if ranks:
        command = [MPIRUN, "-np", str(ranks)] + command
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


def ours(stderr):
    """angara-sim's lines, without what mpirun adds about a rank's exit status."""
    return [l for l in stderr.splitlines() if l.startswith("angara-sim") or l == "no results written"]


def comparable(directory):
    """The results JSON without wall time and ranks record, that record, and the side files."""
    with open(f"{directory}/r.json") as f:
        results = json.load(f)
    results.pop("wall_seconds")
    side = {}
    for name in sorted(os.listdir(directory)):
        if name != "r.json":
            with open(f"{directory}/{name}", "rb") as f:
                side[name] = f.read()
    return results, results.pop("ranks", None), side


with tempfile.TemporaryDirectory() as work:
    for case, (name, overrides, rank_runs) in enumerate(CASES):
        os.makedirs(f"{work}/{case}/one")
        one = run(BASE + overrides, f"{work}/{case}/one/r.json")
        if one.returncode != 0:
            failures.append(f"{name}: one process: exit {one.returncode}: {one.stderr}")
            continue
        expected, _, expected_side = comparable(f"{work}/{case}/one")
        for i, (ranks, grid) in enumerate(rank_runs):
            label = f"{name}, {ranks} ranks" + (f", grid {grid}" if grid else "")
            os.makedirs(f"{work}/{case}/{i}")
            split = run(BASE + overrides, f"{work}/{case}/{i}/r.json", ranks, grid)
            if split.returncode != 0:
                failures.append(f"{label}: exit {split.returncode}: {split.stderr[-2000:]}")
                continue
            actual, record, side = comparable(f"{work}/{case}/{i}")
            if record is None or record["count"] != ranks or (grid and record["grid"] != grid):
                failures.append(f"{label}: the results' ranks record is {record}")
            if actual != expected:
                differ = [k for k in expected if expected.get(k) != actual.get(k)]
                failures.append(f"{label}: results differ in {differ}")
            elif side != expected_side:
                failures.append(f"{label}: side files differ: {sorted(side)} against "
                                f"{sorted(expected_side)}, or their bytes")
            else:
                print(f"same: {label}" + (f" (and {', '.join(side)})" if side else ""))

    def same_failure(label, args, says):
        """A config that fails (exit 3, saying `says`) fails at 2 ranks with the same message."""
        one = run(args, f"{work}/failing.json")
        split = run(args, f"{work}/failing.json", 2)
        if one.returncode != 3 or says not in one.stderr:
            failures.append(f"{label}, one process: exit {one.returncode}: {one.stderr}")
        elif (split.returncode, ours(split.stderr)) != (one.returncode, ours(one.stderr)):
            failures.append(f"{label}, 2 ranks: exit {split.returncode}, {split.stderr!r} "
                            f"where one process gave {one.stderr!r}")
        else:
            print(f"same message: {label}")

    # A deadlock of packets, and programs that wait for messages that never come.
    same_failure("deadlock config",
                 BASE + SHORT + ["--set", "topology.dims=[8,8]", "--set", "router.deadlock=\"none\"",
                                 "--set", "traffic.rate=1.0", "--set", "sim.watchdog_cycles=4000"],
                 "deadlock at cycle")
    same_failure("waiting programs",
                 ["-q", "--set", "workload.kind=\"software\"", "--set", "topology.dims=[8,8]",
                  "--set", "router.deadlock=\"none\"", "--set", "workload.op=\"allgather\"",
                  "--set", "workload.algorithm=\"recursive_doubling\"",
                  "--set", "router.buffer_flits=20", "--set", "workload.payload_flits=16",
                  "--set", "sim.watchdog_cycles=4000"],
                 "wait for messages that never come")

    # A window one cycle longer than allowed: the first record that lands inside it is caught.
    late = run(BASE + SHORT + ["--set", "traffic.rate=0.3"], f"{work}/late.json", 2,
               env=dict(ENV, ANGARA_TEST_WINDOW_CYCLES="41"))
    if late.returncode != 3 or "cut link" not in late.stderr or "must land after" not in late.stderr:
        failures.append(f"window of 41 cycles: exit {late.returncode}: {late.stderr[-2000:]}")
    else:
        print("caught: a window longer than the lookahead")

    # A sweep whose points run over 2 ranks (angara-sweep run starts each under mpirun): each
    # point's results are the one-process run's.
    sweep = os.path.join(os.path.dirname(SIM), "angara-sweep")
    with open(f"{work}/ranks.toml", "w") as f:
        f.write("[sweep]\nranks = 2\n[config.topology]\ndims = [8, 8, 8]\n[config.sim]\n"
                "warmup_cycles = 300\nmeasure_cycles = 800\nprogress = false\n"
                "[[axis]]\nkey = \"traffic.rate\"\nvalues = [0.1, 0.3]\n")
    swept = subprocess.run([sweep, "run", f"{work}/ranks.toml", "--out", f"{work}/ranks", "-j", "2"],
                           capture_output=True, text=True, env=ENV, timeout=600)
    for i, rate in enumerate(("0.1", "0.3")):
        one = run(BASE + SHORT + ["--set", f"traffic.rate={rate}"], f"{work}/sweep_one.json")
        point = f"{work}/ranks/points/point_{i}/results.json"
        if swept.returncode != 0 or one.returncode != 0 or not os.path.exists(point):
            failures.append(f"a sweep over 2 ranks: exit {swept.returncode}: {swept.stderr[-2000:]}")
            break
        with open(point) as f:
            actual = json.load(f)
        with open(f"{work}/sweep_one.json") as f:
            expected = json.load(f)
        record = actual.pop("ranks", None)
        for r in (actual, expected):
            r.pop("wall_seconds")
        if actual != expected or not record or record["count"] != 2:
            failures.append(f"a sweep point over 2 ranks at rate {rate}: results differ")
        else:
            print(f"same: a sweep point over 2 ranks (mpirun), rate {rate}")
    # Its CSV has a column per rank and figure.
    subprocess.run([sweep, "collect", f"{work}/ranks"], capture_output=True, env=ENV)
    with open(f"{work}/ranks/results.csv") as f:
        header = f.readline().strip().split(",")
    wanted = {"ranks.count", "ranks.each.0.kernel_seconds", "ranks.each.1.exchange_seconds"}
    if not wanted <= set(header):
        failures.append(f"a sweep over 2 ranks: results.csv lacks {sorted(wanted - set(header))}")
    else:
        print("columns: a sweep over 2 ranks has ranks.each.0.kernel_seconds, ...")

    # What a split run does not model is refused before it starts, naming the key.
    for args, key in [(["--set", "sim.mode=\"lt\""], "sim.mode"),
                      (["--set", "router.switching=\"wormhole\"", "--set", "router.deadlock=\"dateline\""],
                       "router.switching"),
                      (["--set", "stats.network=true"], "stats.network"),
                      (["--grid", "3x1x1"], "--grid")]:
        refused = run(BASE + SHORT + args, f"{work}/refused.json", 2)
        said = "\n".join(ours(refused.stderr))
        if refused.returncode != 2 or f"'{key}'" not in said or os.path.exists(f"{work}/refused.json"):
            failures.append(f"{args} at 2 ranks: exit {refused.returncode}: {refused.stderr[-2000:]}")
        else:
            print(f"refused: {key} at 2 ranks")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
