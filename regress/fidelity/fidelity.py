#!/usr/bin/env python3
"""Runs each case in AT and in LT, prints the table of LT/AT errors, fails outside the limits.

Every case is one `angara-sim run` per mode with the same config; a metric is read from both
results JSON files and LT's relative error against AT is checked against the case's limit
(0: equal). A load curve is uniform traffic on one network: each mode's accepted throughput at
offered 1.0, then each mode's sustained load, the highest offered load that is still accepted
(within 1%, found by bisection), and at 50%, 80% and 95% of AT's sustained load the mean
latency, its queueing part (mean latency less the zero-load latency, AT's at a light load) and
the accepted throughput. Not of AT's accepted throughput at offered 1.0: round robin lets some
sources take more than their share there, so below it others already fall behind, and a latency
measured past the sustained load grows with the run's length.

What a comparison must meet follows LT's own verdict on that run (its results' `lt_validity`,
docs/LT.md): at "ok" the case's limit, at "approximate" accepted throughput within 5% and the
rest within 25%, at "beyond" nothing (the row is shown). The queueing part is shown, not
checked. Each row shows LT's verdict and the figures it read, so that the verdict's thresholds
can be checked against the errors.

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


class Curve:
    """A load curve: uniform traffic on the network `settings` give, at loads relative to AT's."""

    def __init__(self, name, settings):
        self.name, self.settings = name, settings

    def at_rate(self, rate):
        return dict(self.settings, **{"traffic.rate": rate})


def torus(dims, scheme="bubble", **more):
    return dict({"topology.dims": dims, "router.deadlock": scheme}, **more)


def curves_of(label, dims, schemes=("bubble", "dateline")):
    return [Curve(f"{label} {s}", torus(dims, s)) for s in schemes]


def collective_cases(dims):
    label = "x".join(map(str, dims))
    return [Case("collectives", f"{op} {label}, 10 back to back",
                 {"topology.dims": dims, "workload.kind": "collective", "workload.op": op,
                  "workload.repetitions": 10},
                 per_operation, 0.0, worst_only=True)
            for op in ("broadcast", "reduce", "allreduce")]


def tree_cases(dims):
    """16 trees, 10 allreduces on each, back to back and all at once."""
    label = "x".join(map(str, dims))
    common = {"topology.dims": dims, "workload.kind": "collective", "workload.op": "allreduce",
              "collective.trees": 16, "workload.all_trees": True, "workload.repetitions": 10}
    return [Case("trees", f"allreduce {label}, 16 trees, {how}",
                 dict(common, **{"workload.overlap": overlap}),
                 lambda r: [("mean completion", r["completion_cycles"]["mean"]),
                            ("worst completion", r["completion_cycles"]["max"])], 0.05)
            for how, overlap in (("back to back", False), ("overlapped", True))]
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


def design_cases(dims, sizes):
    """The collective designs of docs/COLLECTIVE_DESIGNS.md, one operation each, timing only."""
    label = "x".join(map(str, dims))
    designs = [("allreduce", a) for a in ("recursive_doubling", "ring", "rabenseifner",
                                          "dimensional", "subnet")]
    designs += [("broadcast", a) for a in ("chain", "pipelined_tree", "ring", "subnet")]
    return [Case("designs", f"{op} {algorithm} {label}, {size // 1024} KB",
                 {"topology.dims": dims, "workload.kind": "software", "workload.op": op,
                  "workload.algorithm": algorithm, "workload.bytes": size,
                  "workload.values": False, "workload.repetitions": 1},
                 lambda r: [("completion", r["completion_cycles"]["mean"])], 0.05)
            for size in sizes for op, algorithm in designs]


SHORT = {"link.latency_ns": 2.0}  # 1 cycle at 500 MHz
MATRICES = {
    "small": {
        "curves": curves_of("4x4x4", [4, 4, 4], ("bubble",))
        + [Curve("4x4x4 bubble, 1-cycle links", torus([4, 4, 4], **SHORT))],
        "cases": collective_cases([4, 4, 4]) + message_cases([8, 256, 4096], 200)
        + app_cases([[2, 2, 2, 2]], 102400, [1]) + heat_cases([[4, 2, 2]])
        + design_cases([4, 4, 4], [65536]),
        "background": [],
    },
    "full": {
        "curves": curves_of("8x8", [8, 8]) + curves_of("4x4x4", [4, 4, 4])
        + curves_of("8x8x8", [8, 8, 8])
        + [Curve("8x8x8 adaptive", torus([8, 8, 8], **{"router.routing": "adaptive"})),
           Curve("8x8x8 bubble, 1% links failed", torus([8, 8, 8], **{"faults.random_links": 0.01})),
           Curve("8x8x8 bubble, 5% links failed", torus([8, 8, 8], **{"faults.random_links": 0.05})),
           Curve("8x8x8 bubble, 1% links failing at cycle 6000",
                 torus([8, 8, 8], **{"faults.random_links": 0.01, "faults.fail_at_cycle": 6000})),
           Curve("fat tree 8-ary 3-tree", {"topology.kind": "fat_tree", "topology.k": 8,
                                           "topology.levels": 3}),
           Curve("fat tree 8-ary 3-tree, 1-cycle links",
                 dict({"topology.kind": "fat_tree", "topology.k": 8, "topology.levels": 3},
                      **SHORT)),
           Curve("4x4x4 bubble, 1-cycle links", torus([4, 4, 4], **SHORT)),
           Curve("8x8x8 bubble, 1-cycle links", torus([8, 8, 8], **SHORT)),
           Curve("8x8x8 bubble, 4-cycle links", torus([8, 8, 8], **{"link.latency_ns": 8.0}))],
        "cases": collective_cases([4, 4, 4]) + collective_cases([8, 8, 8])
        + collective_cases([4, 4, 2, 2]) + tree_cases([4, 4, 4]) + tree_cases([8, 8, 8])
        + message_cases([8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096], 1000)
        + app_cases([[2, 2, 2, 2], [4, 4, 2, 2]], 1024000, [1, 2])
        + app_cases([[2, 2, 2, 2], [4, 4, 2, 2]], 1024000, [1, 2], train=16)
        + heat_cases([[4, 2, 2], [4, 4, 4], [8, 8, 4]])
        + design_cases([4, 4, 4], [4096, 65536, 1048576]) + design_cases([8, 8, 8], [65536]),
        # Allreduces beside uniform traffic at these shares of the curve's AT sustained load.
        "background": ["4x4x4 bubble", "8x8x8 bubble"],
    },
}

LOADS = [0.25, 0.5, 0.8, 0.95]  # of AT's sustained load
LIMITS = {"mean latency": 0.05, "accepted": 0.05}  # at "ok"
LIGHT = 0.02     # the zero-load latency: AT's mean latency at this share of its sustained load
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


def sustained(build, curve, mode, workdir, extra, top):
    """The highest offered load up to `top` that `mode` still accepts, by bisection."""
    kept, lost = top / 2, top
    for _ in range(BISECTIONS):
        rate = (kept + lost) / 2
        r = run(build, curve.at_rate(rate), mode, workdir, extra)
        ok = r["accepted_flits_per_node_cycle"] >= KEPT_UP * r["offered_flits_per_node_cycle"]
        kept, lost = (rate, lost) if ok else (kept, rate)
    return kept


def error(at, lt):
    return 0.0 if at == lt else (lt - at) / at if at else float("inf")


def verdict(lt):
    """LT's verdict on its run and the figures it read (none from a build without one)."""
    v = lt.get("lt_validity")
    c = lt.get("contention", {})
    figures = f"queue {c.get('mean_queue', 0):.2f}, hottest {c.get('hottest_router_queue', 0):.2f}"
    return (v["verdict"] if v else "ok"), figures


# What LT promises at each of its verdicts (docs/LT.md): at "ok" each case's own limit; at
# "approximate" accepted throughput within 5% and every other figure within 25%; at "beyond"
# nothing (shown). The queueing part of latency is shown, not promised (docs/LT.md).
APPROXIMATE = {"accepted": 0.05, "other": 0.25}


class Table:
    """The rows, and what is checked: a row fails outside what LT's verdict on its run promises."""

    def __init__(self):
        self.rows, self.checked, self.failures, self.beyond = [], 0, 0, 0

    def check(self, group, name, metric, at, lt, limit, result):
        """`limit`: at "ok" (None: shown at every verdict, not promised)."""
        e = error(at, lt)
        said, figures = verdict(result)
        if said == "approximate" and limit is not None:
            limit = max(limit, APPROXIMATE["accepted" if metric.startswith("accepted")
                                           else "other"])
        if limit is None or said == "beyond":
            self.beyond += said == "beyond"
            self.rows.append((group, name, metric, f"{at:.6g}", f"{lt:.6g}", f"{e:+.2%}",
                              "shown", said, figures, ""))
            return
        ok = abs(e) <= limit + 1e-12
        self.checked += 1
        self.failures += not ok
        shown = "equal" if limit == 0 else f"{limit:.0%}"
        self.rows.append((group, name, metric, f"{at:.6g}", f"{lt:.6g}", f"{e:+.2%}", shown,
                          said, figures, "ok" if ok else "FAIL"))

    def show(self, group, name, metric, at, lt):
        self.rows.append((group, name, metric, f"{at:.6g}", f"{lt:.6g}", f"{error(at, lt):+.2%}",
                          "shown", "", "", ""))

    def text(self):
        header = ("group", "case", "metric", "AT", "LT", "LT error", "limit", "LT verdict",
                  "LT figures", "")
        widths = [max(len(str(r[i])) for r in self.rows + [header]) for i in range(len(header))]
        return "\n".join("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
                         for r in [header, tuple("-" * w for w in widths)] + self.rows)


def background_case(curve, rate):
    settings = dict(curve.settings, **{"workload.kind": "collective", "workload.op": "allreduce",
                                       "workload.repetitions": 10,
                                       "workload.background_rate": rate})
    return Case("background", f"allreduce on {curve.name}, background at {rate:.3g}", settings,
                lambda r: [("mean completion", r["completion_cycles"]["mean"]),
                           ("worst completion", r["completion_cycles"]["max"])], 0.05)


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
    table = Table()

    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        # Each curve: accepted at offered 1.0, then each mode's sustained load below half again
        # AT's accepted, then the loads relative to AT's sustained load.
        saturation = {c.name: (c, both(pool, args.build, c.at_rate(1.0), workdir, args.lt_set))
                      for c in matrix["curves"]}
        searches = {}
        for name, (curve, (at, lt)) in saturation.items():
            accepted = at.result()["accepted_flits_per_node_cycle"]
            table.check("uniform", name, "accepted at offered 1.0", accepted,
                        lt.result()["accepted_flits_per_node_cycle"], LIMITS["accepted"],
                        lt.result())
            top = min(1.0, 1.5 * accepted)
            searches[name] = (curve, [pool.submit(sustained, args.build, curve, mode, workdir,
                                                  extra, top)
                                      for mode, extra in (("at", ()), ("lt", args.lt_set))])
        loads, light, at_sustained = {}, {}, {}
        for name, (curve, (at, lt)) in searches.items():
            table.show("uniform", name, f"sustained load (accepted within {1 - KEPT_UP:.0%})",
                       at.result(), lt.result())
            at_sustained[name] = at.result()
            light[name] = pool.submit(run, args.build, curve.at_rate(LIGHT * at.result()), "at",
                                      workdir, ())
            for fraction in LOADS:
                loads[(name, fraction)] = both(pool, args.build,
                                               curve.at_rate(fraction * at.result()), workdir,
                                               args.lt_set)
        curves = {c.name: c for c in matrix["curves"]}
        cases = list(matrix["cases"]) + [
            background_case(curves[name], fraction * at_sustained[name])
            for name in matrix["background"] for fraction in LOADS]
        cases = [(c, both(pool, args.build, c.settings, workdir, args.lt_set)) for c in cases]
        for (name, fraction), (at, lt) in loads.items():
            a, b = at.result(), lt.result()
            zero = light[name].result()["latency_cycles"]["mean"]
            where = f"at {fraction:.0%} of AT's sustained load"
            table.check("uniform", name, f"mean latency {where}", a["latency_cycles"]["mean"],
                        b["latency_cycles"]["mean"], LIMITS["mean latency"], b)
            table.check("uniform", name, f"queueing part {where}",
                        a["latency_cycles"]["mean"] - zero, b["latency_cycles"]["mean"] - zero,
                        None, b)
            table.check("uniform", name, f"accepted {where}", a["accepted_flits_per_node_cycle"],
                        b["accepted_flits_per_node_cycle"], LIMITS["accepted"], b)
        for case, (at, lt) in cases:
            pairs = [(metric, a, b) for (metric, a), (_, b) in
                     zip(case.metrics(at.result()), case.metrics(lt.result()))]
            if case.worst_only:
                worst = max(pairs, key=lambda p: abs(error(p[1], p[2])))
                pairs = [(f"{worst[0]}, worst of {len(pairs)}", worst[1], worst[2])]
            for metric, a, b in pairs:
                table.check(case.group, case.name, metric, a, b, case.limit, lt.result())

    text = table.text()
    print(text)
    print(f"\n{table.checked} comparisons: {table.failures} outside what LT's verdict promised; "
          f"{table.beyond} rows shown only, where LT said its run was beyond")
    if args.out:
        args.out.write_text(text + "\n")
    return 1 if table.failures else 0


if __name__ == "__main__":
    sys.exit(main())
