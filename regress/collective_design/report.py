#!/usr/bin/env python3
"""Figures (PNG and SVG), summary.json and REPORT.md of the collective-design study from the CSVs
that regress/collective_design/run collects, one per sweep: OP_NODES.csv (allreduce, broadcast),
each with every design at every size, and beside it OP_NODES_PART.csv (larger sizes for some
designs; a sim.mode column of "at": the same points in AT), which join it in one figure and table
per operation and machine."""

import argparse
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from figures import markdown_table, plt, save  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def size_name(b):
    for unit, div in (("MB", 1 << 20), ("KB", 1 << 10)):
        if b >= div and b % div == 0:
            return f"{b // div} {unit}"
    return f"{b} B"


def read(paths):
    """({design: {bytes: (microseconds, LT verdict)}}, the same of AT's points) of a machine's
    CSVs."""
    lt, at = {}, {}
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        bad = [r["point"] for r in rows if r["status"] != "ok"]
        if bad:
            sys.exit(f"report.py: {path}: points without results: {', '.join(bad)}; rerun the "
                     "study")
        for r in rows:
            us = float(r["completion_ns.mean"]) / 1000.0
            into = at if r.get("sim.mode") == "at" else lt
            into.setdefault(r["workload.algorithm"], {})[int(r["workload.bytes"])] = (
                us, r.get("lt_validity.verdict", ""))
    return lt, at


def winners(designs):
    """[(bytes, winner, us, second, its us)] at every size two designs or more ran."""
    rows = []
    for b in sorted({b for d in designs.values() for b in d}):
        ranked = sorted((designs[d][b][0], d) for d in designs if b in designs[d])
        if len(ranked) > 1:
            rows.append((b, ranked[0][1], ranked[0][0], ranked[1][1], ranked[1][0]))
    return rows


def at_table(lt, at):
    """AT's completion beside LT's at the points both ran: a row per size, a cell per design."""
    order = sorted(at)
    rows = []
    for b in sorted({b for d in at.values() for b in d}):
        cells = []
        for d in order:
            if b not in at[d] or b not in lt.get(d, {}):
                cells.append("")
                continue
            t_at, (t_lt, verdict) = at[d][b][0], lt[d][b]
            cells.append(f"{t_at:,.1f} ({100 * (t_lt / t_at - 1):+.1f}%, {verdict})")
        rows.append([size_name(b)] + cells)
    return ("\n\nIn AT (completion in microseconds; LT's difference from it and LT's verdict in "
            "brackets):\n\n" + markdown_table(["bytes"] + [f"`{d}`" for d in order], rows))


def figure(name, designs, at, best, out):
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for d in sorted(designs):
        sizes = sorted(designs[d])
        us = [designs[d][b][0] for b in sizes]
        line, = left.plot(sizes, us, marker="o", label=d)
        right.plot(sizes, [b / (t * 1000.0) for b, t in zip(sizes, us)], marker="o", label=d)
        if d in at:  # AT's points: crosses of the same colour
            sizes = sorted(at[d])
            us = [at[d][b][0] for b in sizes]
            left.plot(sizes, us, "x", color=line.get_color(), markersize=8)
            right.plot(sizes, [b / (t * 1000.0) for b, t in zip(sizes, us)], "x",
                       color=line.get_color(), markersize=8)
    for (b0, w0, *_), (b1, w1, *_) in zip(best, best[1:]):
        if w1 != w0:  # the fastest changes between these sizes
            for ax in (left, right):
                ax.axvline((b0 * b1) ** 0.5, color="grey", linestyle=":", linewidth=1)
            left.annotate(w1, ((b0 * b1) ** 0.5, left.get_ylim()[1]), rotation=90, fontsize=7,
                          va="top", ha="right", color="grey")
    left.set(xscale="log", yscale="log", xlabel="bytes", ylabel="completion, us", title=name)
    right.set(xscale="log", yscale="log", xlabel="bytes", ylabel="bytes / completion, GB/s",
              title=f"{name}: achieved bandwidth")
    left.grid(True, which="major", alpha=0.3)
    right.grid(True, which="major", alpha=0.3)
    right.legend(fontsize=8, title="x: AT" if at else None, title_fontsize=8)
    save(fig, out, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", required=True, help="the directory of the sweeps' CSVs")
    parser.add_argument("--out", required=True, help="where the figures and REPORT.md go")
    parser.add_argument("--seconds", type=int, default=0, help="the study's wall time")
    args = parser.parse_args()
    summary, sections = {"wall_seconds": args.seconds, "sweeps": {}, "at": {}}, []
    machines = {}  # (operation, nodes): its CSVs
    for path in glob.glob(os.path.join(args.csv, "*.csv")):
        op, nodes = os.path.basename(path)[:-4].split("_")[:2]
        machines.setdefault((op, int(nodes)), []).append(path)
    for (op, nodes), paths in sorted(machines.items()):
        name = f"{op}_{nodes}"
        designs, at = read(sorted(paths))
        best = winners(designs)
        figure(name, designs, at, best, args.out)
        order = sorted(designs)
        table = []
        for b in sorted({b for d in designs.values() for b in d}):
            cells = []
            for d in order:
                if b not in designs[d]:
                    cells.append("")
                    continue
                us, verdict = designs[d][b]
                mark = "" if verdict in ("ok", "") else f" ({verdict})"
                win = any(r[0] == b and r[1] == d for r in best)
                cells.append((f"**{us:,.1f}**" if win else f"{us:,.1f}") + mark)
            table.append([size_name(b)] + cells)
        margins = [[size_name(b), w, f"{t:,.1f}", s, f"{ts / t:.2f}x"] for b, w, t, s, ts in best]
        sections.append(
            f"### {op}, {nodes} nodes\n\n![{name}]({name}.png)\n\nCompletion in microseconds "
            "(the fastest in bold; a verdict other than ok in brackets; a blank: not run):\n\n"
            + markdown_table(["bytes"] + [f"`{d}`" for d in order], table)
            + "\n\nThe fastest and its margin over the next:\n\n"
            + markdown_table(["bytes", "fastest", "us", "next", "next / fastest"], margins)
            + (at_table(designs, at) if at else ""))
        summary["sweeps"][name] = [{"bytes": b, "fastest": w, "us": t, "next": s, "next_us": ts}
                                   for b, w, t, s, ts in best]
        if at:
            summary["at"][name] = [{"design": d, "bytes": b, "at_us": at[d][b][0],
                                    "lt_us": designs[d][b][0], "lt_verdict": designs[d][b][1]}
                                   for d in sorted(at) for b in sorted(at[d]) if b in designs.get(d, {})]
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(HERE, "REPORT.template.md")) as f:
        template = f.read()
    minutes = (f"{args.seconds} s" if args.seconds < 120 else f"{args.seconds / 60:.1f} minutes")
    with open(os.path.join(args.out, "REPORT.md"), "w") as f:
        f.write(template.replace("{results}", "\n\n".join(sections)).replace("{wall_time}",
                                                                              minutes))


if __name__ == "__main__":
    main()
