#!/usr/bin/env python3
"""Runs each case in AT and in LT, prints the table of LT/AT errors, fails outside the limits.

Every case is one `angara-sim run` per mode with the same config; a metric is read from both
results JSON files and LT's relative error against AT is checked against the case's limit
(0: equal). Uniform traffic: each mode's accepted throughput at offered 1.0, then each mode's
sustained load, the highest offered load that is still accepted (within 1%, found by
bisection), and the mean latency at 50%, 80% and 95% of AT's sustained load. Not of AT's
accepted throughput at offered 1.0: round robin lets some sources take more than their share
there, so below it others already fall behind, and a latency measured past the sustained load
grows with the run's length.

usage: fidelity.py --build BUILD [--matrix small|full] [--lt-set KEY=VALUE ...] [--out TABLE.md]
                   [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def toml(value):
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(toml(v) for v in value) + "]"
    return repr(value)


class Case:
    """One configuration run in both modes; `metrics` reads (name, value) pairs from a result."""

    def __init__(self, group, name, settings, metrics, limit, worst_only=False):
        self.group, self.name, self.settings, self.metrics, self.limit = (
            group, name, settings, metrics, limit)
        self.worst_only = worst_only  # one row: the metric whose LT error is largest


def per_size(key):
    return lambda r: [(f"{s['bytes']} B", s[key]) for s in r["sizes"]]


def per_operation(r):
    return [(f"op {k}", c) for k, c in enumerate(r["per_operation_cycles"])]


def uniform_settings(dims, scheme, rate):
    return {"topology.dims": dims, "router.deadlock": scheme, "traffic.rate": rate}


def collective_cases(dims):
    label = "x".join(map(str, dims))
    return [Case("collectives", f"{op} {label}, 10 back to back",
                 {"topology.dims": dims, "workload.kind": "collective", "workload.op": op,
                  "workload.repetitions": 10},
                 per_operation, 0.0, worst_only=True)
            for op in ("broadcast", "reduce", "allreduce")]


def message_cases(sizes, messages):
    common = {"topology.dims": [4, 4, 4], "workload.sizes": sizes, "workload.messages": messages}
    return [
        Case("messages", "msgrate", dict(common, **{"workload.kind": "msgrate"}),
             per_size("rate_mmsg_s"), 0.05),
        Case("messages", "pingpong", dict(common, **{"workload.kind": "pingpong"}),
             per_size("half_rtt_ns"), 0.0),
    ]


def app_cases(nodes_dims, rows, buffers, train=1):
    """SpMV's allgather; `train`: LT's sim.train_packets (AT sends packet by packet)."""
    cases = []
    for dims in nodes_dims:
        label = "x".join(map(str, dims))
        for algorithm in ("subnet", "recursive_doubling"):
            for scale in buffers:
                settings = {"topology.dims": dims, "workload.kind": "spmv",
                            "workload.algorithm": algorithm, "app.rows": rows,
                            "workload.repetitions": 2}
                name = f"{algorithm} {label}, buffers x{scale}"
                if scale != 1:
                    settings["router.buffer_flits"] = 64 * scale
                    settings["collective.buffer_flits"] = 34 * scale
                if train != 1:
                    settings["sim.train_packets"] = train
                    name += f", LT trains of {train}"
                cases.append(Case("spmv", name, settings,
                                  lambda r: [("allgather us", r["collective_us"])], 0.05))
    return cases


def heat_cases(nodes_dims):
    return [Case("heat", f"{algorithm} {'x'.join(map(str, dims))}",
                 {"topology.dims": dims, "workload.kind": "heat", "workload.algorithm": algorithm,
                  "workload.repetitions": 2},
                 lambda r: [("iteration us", r["iteration_us"]),
                            ("allreduce us", r["collective_us"])], 0.05)
            for dims in nodes_dims for algorithm in ("subnet", "tree")]


MATRICES = {
    "small": {
        "uniform": [([4, 4, 4], "bubble")],
        "cases": collective_cases([4, 4, 4]) + message_cases([8, 256, 4096], 200)
        + app_cases([[2, 2, 2, 2]], 102400, [1]) + heat_cases([[4, 2, 2]]),
    },
    "full": {
        "uniform": [(d, s) for d in ([8, 8], [4, 4, 4], [8, 8, 8]) for s in ("bubble", "dateline")],
        "cases": collective_cases([4, 4, 4]) + collective_cases([8, 8, 8])
        + collective_cases([4, 4, 2, 2])
        + message_cases([8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096], 1000)
        + app_cases([[2, 2, 2, 2], [4, 4, 2, 2]], 1024000, [1, 2])
        + app_cases([[2, 2, 2, 2], [4, 4, 2, 2]], 1024000, [1, 2], train=16)
        + heat_cases([[4, 2, 2], [4, 4, 4], [8, 8, 4]]),
    },
}

UNIFORM_LOADS = [(0.5, 0.05), (0.8, 0.05), (0.95, 0.15)]  # of AT's sustained load, limit
KEPT_UP = 0.99   # a load is sustained while this share of it is accepted
BISECTIONS = 7   # the sustained load to 1/128 of the interval searched


def run(build, settings, mode, workdir, extra):
    fd, name = tempfile.mkstemp(suffix=".json", dir=workdir)
    os.close(fd)
    out = pathlib.Path(name)
    cmd = [str(build / "sc_main" / "angara-sim"), "run", "--mode", mode, "--out", str(out),
           "--quiet"]
    for key, value in settings.items():
        cmd += ["--set", f"{key}={toml(value)}"]
    for setting in extra:
        cmd += ["--set", setting]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\nexit {done.returncode}: {done.stderr.strip()}")
    return json.loads(out.read_text())


def both(pool, build, settings, workdir, lt_extra=()):
    return [pool.submit(run, build, settings, "at", workdir, ()),
            pool.submit(run, build, settings, "lt", workdir, lt_extra)]


def sustained(build, dims, scheme, mode, workdir, extra, top):
    """The highest offered load up to `top` that `mode` still accepts, by bisection."""
    kept, lost = top / 2, top
    for _ in range(BISECTIONS):
        rate = (kept + lost) / 2
        r = run(build, uniform_settings(dims, scheme, rate), mode, workdir, extra)
        ok = r["accepted_flits_per_node_cycle"] >= KEPT_UP * r["offered_flits_per_node_cycle"]
        kept, lost = (rate, lost) if ok else (kept, rate)
    return kept


def error(at, lt):
    return 0.0 if at == lt else (lt - at) / at if at else float("inf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, type=pathlib.Path, help="the build directory")
    parser.add_argument("--matrix", choices=MATRICES, default="small",
                        help="small: the test suite's cases; full: every case (nightly)")
    parser.add_argument("--out", type=pathlib.Path, help="also write the table here (Markdown)")
    parser.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    parser.add_argument("--lt-set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for the LT runs only, e.g. sim.lt_buffers=true")
    args = parser.parse_args()
    matrix = MATRICES[args.matrix]
    rows, checked, failures = [], 0, 0

    def check(group, name, metric, at, lt, limit):
        nonlocal checked, failures
        e = error(at, lt)
        ok = abs(e) <= limit + 1e-12
        checked += 1
        failures += not ok
        shown = "equal" if limit == 0 else f"{limit:.0%}"
        rows.append((group, name, metric, f"{at:.6g}", f"{lt:.6g}", f"{e:+.2%}", shown,
                     "ok" if ok else "FAIL"))

    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        # Uniform traffic: accepted at offered 1.0, then each mode's sustained load below
        # half again AT's accepted, then the loads relative to AT's sustained load.
        saturation = {}
        for dims, scheme in matrix["uniform"]:
            saturation[(tuple(dims), scheme)] = both(
                pool, args.build, uniform_settings(dims, scheme, 1.0), workdir, args.lt_set)
        searches = {}
        for key, (at, lt) in saturation.items():
            dims, scheme = key
            accepted = at.result()["accepted_flits_per_node_cycle"]
            check("uniform", f"{'x'.join(map(str, dims))} {scheme}", "accepted at offered 1.0",
                  accepted, lt.result()["accepted_flits_per_node_cycle"], 0.05)
            top = min(1.0, 1.5 * accepted)
            searches[key] = [pool.submit(sustained, args.build, list(dims), scheme, mode, workdir,
                                         extra, top)
                             for mode, extra in (("at", ()), ("lt", args.lt_set))]
        loads = {}
        for key, (at, lt) in searches.items():
            dims, scheme = key
            rows.append(("uniform", f"{'x'.join(map(str, dims))} {scheme}",
                         f"sustained load (accepted within {1 - KEPT_UP:.0%})",
                         f"{at.result():.6g}", f"{lt.result():.6g}",
                         f"{error(at.result(), lt.result()):+.2%}", "shown", ""))
            for fraction, limit in UNIFORM_LOADS:
                loads[(key, fraction, limit)] = both(
                    pool, args.build, uniform_settings(list(dims), scheme,
                                                       fraction * at.result()),
                    workdir, args.lt_set)
        cases = [(c, both(pool, args.build, c.settings, workdir, args.lt_set))
                 for c in matrix["cases"]]
        for ((dims, scheme), fraction, limit), (at, lt) in loads.items():
            check("uniform", f"{'x'.join(map(str, dims))} {scheme}",
                  f"mean latency at {fraction:.0%} of AT's sustained load",
                  at.result()["latency_cycles"]["mean"], lt.result()["latency_cycles"]["mean"],
                  limit)
        for case, (at, lt) in cases:
            pairs = [(metric, a, b) for (metric, a), (_, b) in
                     zip(case.metrics(at.result()), case.metrics(lt.result()))]
            if case.worst_only:
                worst = max(pairs, key=lambda p: abs(error(p[1], p[2])))
                pairs = [(f"{worst[0]}, worst of {len(pairs)}", worst[1], worst[2])]
            for metric, a, b in pairs:
                check(case.group, case.name, metric, a, b, case.limit)

    header = ("group", "case", "metric", "AT", "LT", "LT error", "limit", "")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    lines = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
             for r in [header, tuple("-" * w for w in widths)] + rows]
    table = "\n".join(lines)
    print(table)
    print(f"\n{checked} comparisons, {failures} outside their limits")
    if args.out:
        args.out.write_text(table + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
