#!/usr/bin/env python3
"""Figures (PNG and SVG), summary.json and REPORT.md of the torus-against-fat-tree study (with a
circulant graph of the torus's degree at 512 nodes) from the CSVs that regress/torus_fat_tree/run
collects, one per sweep: FAMILY_NODES.csv (uniform, local, hotspot, bimodal, on_off, fft3d) and
FAMILY_NODES_at.csv (the same sweep in AT: the check)."""

import argparse
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from figures import markdown_table, plt, save  # noqa: E402

# What tells a family's curves apart besides the machine, and how a legend names it.
SERIES = {
    "uniform": [],
    "local": [("traffic.local_rate", "R"), ("traffic.local_distance", "D")],
    "hotspot": [("traffic.hotspot_rate", "hot")],
    "bimodal": [("traffic.bimodal_fraction", "short")],
    "on_off": [],
    "fft3d": [("traffic.fft_phase", "phase")],
}
TITLES = {
    "uniform": "uniform",
    "local": "local (share R within distance D)",
    "hotspot": "hot spot (share to node 0)",
    "bimodal": "bimodal 1 and 64 flits (share of 1-flit messages)",
    "on_off": "on/off bursts (100 on, 100 off)",
    "fft3d": "3D FFT pencil phases, 32-flit messages",
}


def machine(row):
    if row["topology.kind"] == "fat_tree":
        return "fat tree"
    if row["topology.kind"] == "cayley":
        return "circulant"
    # Sweeps without a routing axis route by dimension order, the default.
    return "torus adaptive" if row.get("router.routing") == "adaptive" else "torus DOR"


def read(path):
    """The rows that ran (beyond-saturation points were not run), each with its numbers."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    bad = [r["point"] for r in rows if r["status"] not in ("ok", "beyond_saturation")]
    if bad:
        sys.exit(f"report.py: {path}: points without results: {', '.join(bad)}; rerun the study")
    out = []
    for r in rows:
        if r["status"] != "ok":
            continue
        r["rate"] = float(r["traffic.rate"])
        r["latency"] = float(r["latency_cycles.mean"])
        r["accepted"] = float(r["accepted_flits_per_node_cycle"])
        r["is_saturated"] = r["saturated"] == "true"
        out.append(r)
    return out


def curves(rows, family):
    """{(machine, series label): rows by rate}."""
    out = {}
    for r in rows:
        label = ", ".join(f"{short} {r[key]}" for key, short in SERIES[family])
        out.setdefault((machine(r), label), []).append(r)
    for points in out.values():
        points.sort(key=lambda r: r["rate"])
    return out


def summarize(points):
    """Zero-load latency (the lightest load), saturation throughput (the most accepted), and the
    highest load still sustained and the first saturated one."""
    sustained = [r for r in points if not r["is_saturated"]]
    saturated = [r for r in points if r["is_saturated"]]
    return {
        "zero_load_cycles": points[0]["latency"],
        "zero_load_ns": float(points[0]["latency_ns.mean"]),
        "lightest_load": points[0]["rate"],
        "saturation_throughput": max(r["accepted"] for r in points),
        "sustained_load": sustained[-1]["rate"] if sustained else None,
        "saturated_at": saturated[0]["rate"] if saturated else None,
    }


STYLE = {"torus DOR": ("tab:blue", "-"), "torus adaptive": ("tab:green", "-."),
         "fat tree": ("tab:red", "--"), "circulant": ("tab:purple", "-")}
MARKERS = ["o", "s", "^", "D"]


def figure(name, family, nodes, lines, out):
    """Mean latency against offered load, a line per curve; a saturated point is an open marker
    joined by a dotted segment and the curve's saturation throughput a tick on the x axis."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    labels = sorted({label for _, label in lines})
    top = 0
    for (mach, label), points in sorted(lines.items()):
        color, dash = STYLE[mach]
        marker = MARKERS[labels.index(label) % len(MARKERS)]
        ok = [r for r in points if not r["is_saturated"]]
        text = mach + (f", {label}" if label else "")
        ax.plot([r["rate"] for r in ok], [r["latency"] for r in ok], dash, color=color,
                marker=marker, markersize=4, label=text)
        sat = [r for r in points if r["is_saturated"]]
        if sat and ok:
            ax.plot([ok[-1]["rate"], sat[0]["rate"]], [ok[-1]["latency"], sat[0]["latency"]], ":",
                    color=color)
        for r in sat:
            ax.plot(r["rate"], r["latency"], marker, color=color, markerfacecolor="none")
        ax.axvline(summarize(points)["saturation_throughput"], ymax=0.04, color=color)
        top = max([top] + [r["latency"] for r in ok])
    ax.set_ylim(0, top * 1.6 if top else None)
    ax.set_xlabel("offered load (flits per node per cycle)")
    ax.set_ylabel("mean latency (router cycles)")
    ax.set_title(f"{nodes} nodes, {TITLES[family]}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, out, name)


def number(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"


def summary_rows(summary):
    return [[mach + (f", {label}" if label else ""), number(s["zero_load_cycles"], 1),
             number(s["saturation_throughput"], 3), number(s["sustained_load"], 3),
             number(s["saturated_at"], 3)]
            for (mach, label), s in sorted(summary.items())]


HEADER = ["machine, curve", "latency at the lightest load (cycles)", "saturation throughput",
          "highest load sustained", "first load saturated"]


def at_check(csv_dir):
    """LT with buffers against AT wherever a sweep ran in both (NAME.csv and NAME_at.csv): mean
    latency at every load both sustained, and the saturation throughputs. Returns the table's
    rows and each machine's largest latency error in percent."""
    rows, worst = [], {}
    for at_path in sorted(glob.glob(os.path.join(csv_dir, "*_at.csv"))):
        name = os.path.basename(at_path)[:-len("_at.csv")]
        family, nodes = name.rsplit("_", 1)
        lt = curves(read(os.path.join(csv_dir, name + ".csv")), family)
        at = curves(read(at_path), family)
        for key in sorted(at):
            label = f"{nodes} nodes, {key[0]}" + (f", {key[1]}" if key[1] else "")
            by_rate = {r["rate"]: r for r in lt.get(key, [])}
            for r in at[key]:
                other = by_rate.get(r["rate"])
                if other is None or r["is_saturated"] or other["is_saturated"]:
                    continue
                error = 100.0 * (other["latency"] / r["latency"] - 1.0)
                rows.append([label, f"{r['rate']:g}", f"{r['latency']:.1f}",
                             f"{other['latency']:.1f}", f"{error:+.1f}%"])
                worst[label] = max(worst.get(label, 0.0), abs(error))
            at_sat = summarize(at[key])["saturation_throughput"]
            lt_sat = summarize(lt[key])["saturation_throughput"]
            rows.append([label, "saturation throughput", f"{at_sat:.3f}", f"{lt_sat:.3f}",
                         f"{100.0 * (lt_sat / at_sat - 1.0):+.1f}%"])
    return rows, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--csv", required=True, help="directory of the collected CSVs")
    ap.add_argument("--out", required=True, help="where figures, summary.json and REPORT.md go")
    ap.add_argument("--seconds", type=int, default=0, help="the study's wall time, for REPORT")
    ap.add_argument("--small", action="store_true", help="the small variant: no REPORT prose")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    summary, sections = {}, []
    for path in sorted(glob.glob(os.path.join(a.csv, "*.csv"))):
        name = os.path.basename(path)[:-4]
        family, nodes = name.rsplit("_", 1)
        if family not in SERIES:
            continue  # NAME_at: the AT check
        lines = curves(read(path), family)
        figure(name, family, nodes, lines, a.out)
        s = {key: summarize(points) for key, points in lines.items()}
        summary[name] = {f"{m}|{label}": v for (m, label), v in s.items()}
        sections.append((name, family, nodes, s))

    check_rows, worst = at_check(a.csv)
    summary["at_check_worst_latency_error_percent"] = worst
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")

    tables = []
    for name, family, nodes, s in sorted(sections, key=lambda x: (int(x[2]), x[0])):
        tables.append(f"### {nodes} nodes, {TITLES[family]}\n\n![{name}]({name}.svg)\n\n"
                      + markdown_table(HEADER, summary_rows(s)))
    values = {"tables": "\n\n".join(tables),
              "at_check": markdown_table(
                  ["machine", "offered load", "AT", "LT with buffers", "LT - AT"], check_rows),
              "minutes": f"{a.seconds / 60:.0f}", "seconds": a.seconds}
    for name, _, _, s in sections:
        for (mach, label), v in s.items():
            if not label:
                key = f"{name}_{mach.replace(' ', '_')}"
                values[f"{key}_zero"] = number(v["zero_load_cycles"], 1)
                values[f"{key}_sat"] = number(v["saturation_throughput"], 3)
    template = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "REPORT.small.md" if a.small else "REPORT.template.md")
    with open(os.path.join(a.out, "REPORT.md"), "w") as f:
        f.write(open(template).read().format(**values))


if __name__ == "__main__":
    main()
