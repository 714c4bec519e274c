#!/usr/bin/env python3
"""Tables, figures (PNG and SVG) and REPORT.md of the collective-subnet study from the CSVs that
regress/paper/run collects (one per sweep: basic_3d, basic_4d, basic_at, heat, spmv, spmv_at,
spmv_at_ranks)."""

import argparse
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from figures import markdown_table, plt, save  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    bad = [r["point"] for r in rows if r.get("status") != "ok"]
    if bad:
        sys.exit(f"report.py: {path}: points without results: {', '.join(bad)}; rerun regress/paper/run")
    return rows


def dims(row):
    return "x".join(str(d) for d in json.loads(row["topology.dims"]))


def pairs(rows, key, hw, sw, value):
    """{(dims, key value): (hardware value, software value, nodes)} for rows of both algorithms."""
    out = {}
    for r in rows:
        k = (dims(r), r.get(key, ""))
        entry = out.setdefault(k, [None, None, int(r["nodes"])])
        if r["workload.algorithm"] == hw:
            entry[0] = value(r)
        elif r["workload.algorithm"] == sw:
            entry[1] = value(r)
    return {k: v for k, v in out.items() if v[0] is not None and v[1] is not None}


def basic(csv_dir, out):
    completion_us = lambda r: float(r["completion_ns.mean"]) / 1000.0
    table = []
    for shape in ("basic_3d", "basic_4d", "basic_at"):
        path = os.path.join(csv_dir, f"{shape}.csv")
        if not os.path.exists(path):
            continue
        rows = read(path)
        mode = "AT" if shape == "basic_at" else "LT"
        for (d, op), (hw, sw, n) in sorted(pairs(rows, "workload.op", "subnet", "tree", completion_us).items(),
                                           key=lambda kv: (kv[0][1], kv[1][2])):
            table.append(dict(shape="4D" if d.count("x") == 3 else "3D", mode=mode, dims=d, nodes=n, op=op,
                              hw_us=hw, sw_us=sw, speedup=sw / hw))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, op in zip(axes, ("broadcast", "allreduce")):
        for shape, style in (("3D", "-"), ("4D", "--")):
            pts = sorted((t["nodes"], t["hw_us"], t["sw_us"]) for t in table
                         if t["op"] == op and t["shape"] == shape and t["mode"] == "LT")
            if not pts:
                continue
            n = [p[0] for p in pts]
            ax.plot(n, [p[1] for p in pts], "o" + style, label=f"subnet {shape}")
            ax.plot(n, [p[2] for p in pts], "s" + style, label=f"software tree {shape}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes")
        ax.set_ylabel("completion, us")
        ax.set_title(f"{op} of one 256-byte packet")
        ax.grid(True, alpha=0.3)
        ax.legend()
    save(fig, out, "basic_time")
    fig, ax = plt.subplots(figsize=(6, 4))
    for op, marker in (("broadcast", "o"), ("allreduce", "s")):
        for shape, style in (("3D", "-"), ("4D", "--")):
            pts = sorted((t["nodes"], t["speedup"]) for t in table
                         if t["op"] == op and t["shape"] == shape and t["mode"] == "LT")
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker + style, label=f"{op} {shape}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes")
    ax.set_ylabel("speedup of the subnet over software")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save(fig, out, "basic_speedup")
    return table


def app(csv_dir, out, name, key, software, unit, scale, series="{}"):
    """Per point (torus and `key` value): performance and times of the subnet and of `software`,
    and the gain; a side that did not run there gets None."""
    path = os.path.join(csv_dir, f"{name}.csv")
    if not os.path.exists(path):
        return []
    rows = read(path)
    perf = lambda r: float(r["gflops"]) / scale
    # `key`: a column, or several whose values are shown joined by "/"
    value = lambda r: "/".join(r.get(k, "") for k in ((key,) if isinstance(key, str) else key))
    by_point = lambda algorithm: {(dims(r), value(r)): r for r in rows
                                  if r["workload.algorithm"] == algorithm}
    hw_rows, sw_rows = by_point("subnet"), by_point(software)
    # Every point of either algorithm; a machine one of them did not run has None on that side.
    get = lambda r, column: float(r[column]) if r else None
    table = []
    for point in dict.fromkeys(list(hw_rows) + list(sw_rows)):
        h, s = hw_rows.get(point), sw_rows.get(point)
        one = h or s
        table.append(dict(dims=dims(one), nodes=int(one["nodes"]), size=value(one),
                          hw=perf(h) if h else None, sw=perf(s) if s else None,
                          gain=perf(h) / perf(s) if h and s else None,
                          compute_us=float(one["compute_us"]),
                          hw_iter_us=get(h, "iteration_us"), sw_iter_us=get(s, "iteration_us"),
                          hw_coll_us=get(h, "collective_us"), sw_coll_us=get(s, "collective_us")))
    table.sort(key=lambda t: (t["size"], t["nodes"]))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for size in sorted({t["size"] for t in table}):
        pts = [t for t in table if t["size"] == size]
        label = series.format(size) if size else "N"
        hw = [t for t in pts if t["hw"] is not None]
        axes[0].plot([t["nodes"] for t in hw], [t["hw"] for t in hw], "o-", label=f"subnet {label}")
        sw = [t for t in pts if t["sw"] is not None]
        if sw:
            axes[0].plot([t["nodes"] for t in sw], [t["sw"] for t in sw], "s--",
                         label=f"software {label}")
        both = [t for t in pts if t["gain"] is not None]
        axes[1].plot([t["nodes"] for t in both], [t["gain"] for t in both], "o-", label=label)
    for ax, ylabel in zip(axes, (f"performance, {unit}", "gain of the subnet over software")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes")
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        ax.legend()
    save(fig, out, f"{name}_performance")
    return table


def num(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"


def spmv_rows(table, with_size=False):
    return [((t["size"],) if with_size else ()) +
            (t["dims"], t["nodes"], f"{t['compute_us']:.0f}", num(t["hw_coll_us"], 0),
             num(t["sw_coll_us"], 0), num(t["hw_iter_us"], 0), num(t["sw_iter_us"], 0),
             num(t["hw"], 2), num(t["sw"], 2), num(t["gain"], 2)) for t in table]


def allgather_us(table):
    """{"<dims> <algorithm>": allgather time, us} of an SpMV table's points."""
    out = {}
    for t in table:
        if t["hw_coll_us"] is not None:
            out[f"{t['dims']} subnet"] = t["hw_coll_us"]
        if t["sw_coll_us"] is not None:
            out[f"{t['dims']} recursive_doubling"] = t["sw_coll_us"]
    return out


def best_gain(table):
    gains = [t for t in table if t["gain"] is not None]
    if not gains:
        return "no point has both algorithms"
    t = max(gains, key=lambda t: t["gain"])
    return f"{t['gain']:.2f} at {t['nodes']} nodes ({t['dims']})"


def largest_point(csv_dir, algorithm):
    """What an SpMV algorithm's largest machine cost: the point that bounds where its sweep stops."""
    rows = [r for r in read(os.path.join(csv_dir, "spmv.csv")) if r["workload.algorithm"] == algorithm]
    if not rows:
        return "no point ran"
    r = max(rows, key=lambda r: int(r["nodes"]))
    wall, messages = float(r["wall_seconds"]), int(r["messages_delivered"])
    took = f"{wall / 60:.0f} minutes" if wall >= 120 else f"{wall:.1f} s"
    iterations = int(r["iterations"])
    per_message = f", {wall * 1e6 / messages:.1f} us of wall time per message" if messages else ""
    count = f", {messages / 1e6:.1f} million messages" if messages else ""
    memory = f" and held {float(r['peak_memory_mb']):.0f} MB" if r.get("peak_memory_mb") else ""
    return (f"{r['nodes']} nodes ({dims(r)}{count}) took {took}{memory} for {iterations} "
            f"iteration{'s' if iterations > 1 else ''}, beside the other points{per_message}")


def at_over_ranks(csv_dir):
    """SpMV in AT split over MPI ranks, each point beside LT's at the same machine (spmv.csv)."""
    path = os.path.join(csv_dir, "spmv_at_ranks.csv")
    if not os.path.exists(path):
        return ("Not run: the build has no MPI (regress/paper/run runs spmv_at_ranks.toml only with "
                "one that has).", [])
    lt = {(dims(r), r["workload.algorithm"]): r for r in read(os.path.join(csv_dir, "spmv.csv"))}
    rows, points = [], []
    for r in read(path):
        l = lt.get((dims(r), r["workload.algorithm"]))
        at_us, lt_us = float(r["collective_us"]), float(l["collective_us"]) if l else None
        ranks = int(float(r["ranks.count"]))
        rows.append((r["workload.algorithm"].replace("_", " "), dims(r), r["nodes"], r["iterations"],
                     f"{float(r['compute_us']):.0f}", f"{at_us:.0f}", num(lt_us, 0),
                     "-" if lt_us is None else f"{100 * (lt_us / at_us - 1):+.1f}%",
                     f"{float(r['iteration_us']):.0f}", f"{float(r['gflops']):.2f}", ranks,
                     f"{float(r['wall_seconds']):.0f}"))
        points.append({"algorithm": r["workload.algorithm"], "nodes": int(r["nodes"]), "ranks": ranks,
                       "at_allgather_us": at_us, "lt_allgather_us": lt_us,
                       "wall_seconds": float(r["wall_seconds"])})
    table = markdown_table(["allgather", "dims", "nodes", "iterations", "compute, us", "AT allgather, us",
                            "LT allgather, us", "LT against AT", "AT iteration, us", "AT GFlop/s",
                            "MPI ranks", "wall time, s"], rows)
    off = [p for p in points if p["lt_allgather_us"] is not None
           and abs(p["lt_allgather_us"] / p["at_allgather_us"] - 1) > 0.10]
    if off:
        table += "\n\n" + " ".join(
            f"**LT departs from AT here:** its {p['algorithm'].replace('_', ' ')} allgather at "
            f"{p['nodes']} nodes is {100 * (p['lt_allgather_us'] / p['at_allgather_us'] - 1):+.0f}% "
            f"off AT's, beyond the 10% LT keeps where the AT tables above compare; LT's figures for "
            f"it at this size and larger are LT's, not the hardware's." for p in off)
    return table, points


def changes(csv_dir, spmv_at):
    """The previous study's results (LT without buffers, kept in previous/) against this one's:
    SpMV's allgather per point beside AT's at the default buffers where AT ran, and the largest
    change of heat's and the basic collectives' times."""
    before = os.path.join(csv_dir, "previous")
    if not os.path.exists(os.path.join(before, "spmv.csv")):
        return "No previous study to compare with (docs/paper/previous/ holds it in the full study)."
    key = lambda r: (dims(r), r["workload.algorithm"])
    old = {key(r): r for r in read(os.path.join(before, "spmv.csv"))}
    at = {(t["dims"], alg): t[side] for t in spmv_at if t["size"] == "34/64"
          for alg, side in (("subnet", "hw_coll_us"), ("recursive_doubling", "sw_coll_us"))}
    rows = []
    for r in sorted(read(os.path.join(csv_dir, "spmv.csv")), key=lambda r: (r["workload.algorithm"], int(r["nodes"]))):
        o = old.get(key(r))
        if o is None:
            continue
        was, now = float(o["collective_us"]), float(r["collective_us"])
        a = at.get(key(r))
        rows.append((r["workload.algorithm"].replace("_", " "), dims(r), r["nodes"], f"{was:.0f}", f"{now:.0f}",
                     f"{100 * (now / was - 1):+.1f}%", num(a, 0),
                     "-" if a is None else f"{100 * (was / a - 1):+.1f}% / {100 * (now / a - 1):+.1f}%"))
    text = markdown_table(["allgather", "dims", "nodes", "previous (LT without buffers), us", "now, us",
                           "change", "AT, us", "previous / now against AT"], rows)
    for name, column in (("heat", "collective_us"), ("basic_3d", "completion_ns.mean"),
                         ("basic_4d", "completion_ns.mean")):
        if not os.path.exists(os.path.join(before, f"{name}.csv")):
            continue
        pick = lambda r: (dims(r), r.get("app.grid", ""), r.get("workload.op", ""), r["workload.algorithm"])
        was = {pick(r): float(r[column]) for r in read(os.path.join(before, f"{name}.csv"))}
        moved = [abs(float(r[column]) / was[pick(r)] - 1) for r in read(os.path.join(csv_dir, f"{name}.csv"))
                 if pick(r) in was and was[pick(r)] > 0]
        if moved:
            text += (f"\n\n{name}: {len(moved)} points in both studies; {column} changed by at most "
                     f"{100 * max(moved):.2f}%.")
    return text


def points_time(csv_dir):
    """The wall times of every point of every sweep, added up."""
    total = sum(float(r["wall_seconds"]) for name in sorted(os.listdir(csv_dir))
                if name.endswith(".csv") for r in read(os.path.join(csv_dir, name))
                if r.get("wall_seconds"))
    return f"{total / 3600:.1f} hours" if total >= 3600 else f"{total / 60:.0f} minutes"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--csv", required=True, help="directory with the sweeps' CSVs")
    ap.add_argument("--out", required=True, help="where figures and REPORT.md go")
    ap.add_argument("--seconds", type=int, default=0,
                    help="wall time of the run that made the CSVs, for the report (0: not said)")
    ap.add_argument("--small", action="store_true", help="the small (CI) variant")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    b = basic(a.csv, a.out)
    heat = app(a.csv, a.out, "heat", "app.grid", "tree", "TFlop/s", 1000.0)
    spmv = app(a.csv, a.out, "spmv", "", "recursive_doubling", "GFlop/s", 1.0)
    spmv_at = app(a.csv, a.out, "spmv_at", ("collective.buffer_flits", "router.buffer_flits"),
                  "recursive_doubling", "GFlop/s", 1.0, series="buffers {} flits")
    for t in heat:
        t["size"] = "x".join(str(v) for v in json.loads(t["size"]))
    ranks_table, ranks_points = at_over_ranks(a.csv)

    basic_rows = [(t["shape"], t["mode"], t["dims"], t["nodes"], t["op"], f"{t['hw_us']:.2f}",
                   f"{t['sw_us']:.2f}", f"{t['speedup']:.2f}") for t in b]
    heat_rows = [(t["size"], t["dims"], t["nodes"], f"{t['compute_us']:.1f}", f"{t['hw_coll_us']:.2f}",
                  f"{t['sw_coll_us']:.2f}", f"{t['hw_iter_us']:.1f}", f"{t['sw_iter_us']:.1f}",
                  f"{t['hw']:.3f}", f"{t['sw']:.3f}", f"{t['gain']:.2f}") for t in heat]
    summary = {}
    for t in b:
        if t["mode"] == "LT":
            summary.setdefault((t["shape"], t["op"]), {})[t["nodes"]] = t["speedup"]
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"basic_speedup": {f"{k[0]} {k[1]}": v for k, v in summary.items()},
                   "heat_gain": {f"{t['size']} {t['nodes']}": t["gain"] for t in heat},
                   "spmv_gain": {str(t["nodes"]): t["gain"] for t in spmv if t["gain"] is not None},
                   "spmv_allgather_us": allgather_us(spmv),
                   "spmv_at_allgather_us": allgather_us([t for t in spmv_at if t["size"] == "34/64"]),
                   "spmv_at_gain": {f"{t['size']} {t['nodes']}": t["gain"] for t in spmv_at},
                   "spmv_at_perf": {f"{alg} {t['size']} {t['nodes']}": t[side] for t in spmv_at
                                    for alg, side in (("subnet", "hw"), ("software", "sw"))},
                   "spmv_at_ranks": ranks_points},
                  f, indent=1)

    spmv_header = ["dims", "nodes", "compute, us", "allgather subnet, us", "allgather software, us",
                   "iteration subnet, us", "iteration software, us", "subnet, GFlop/s",
                   "software, GFlop/s", "gain"]
    template = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "REPORT.template.md")).read()
    text = template.format(
        variant="small variant (CI)" if a.small else "full study",
        elapsed=f" by `regress/paper/run` in {a.seconds} s" if a.seconds else "",
        points_time=points_time(a.csv),
        basic_table=markdown_table(["torus", "mode", "dims", "nodes", "op", "subnet, us",
                                    "software, us", "speedup"], basic_rows),
        heat_table=markdown_table(["grid", "dims", "nodes", "compute, us", "allreduce subnet, us",
                                   "allreduce software, us", "iteration subnet, us",
                                   "iteration software, us", "subnet, TFlop/s",
                                   "software, TFlop/s", "gain"], heat_rows),
        spmv_table=markdown_table(spmv_header, spmv_rows(spmv)),
        spmv_at_table=markdown_table(["buffers (collective/router), flits"] + spmv_header,
                                     spmv_rows(spmv_at, True)),
        spmv_best=best_gain(spmv),
        rd_largest=largest_point(a.csv, "recursive_doubling"),
        subnet_largest=largest_point(a.csv, "subnet"),
        changes=changes(a.csv, spmv_at),
        spmv_at_best=best_gain([t for t in spmv_at if t["size"] == "34/64"]),
        spmv_at_ranks_table=ranks_table)
    with open(os.path.join(a.out, "REPORT.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
