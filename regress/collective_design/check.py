#!/usr/bin/env python3
"""Checks a regenerated collective-design study (regress/collective_design/run): every figure,
CSV and the report are there; every LT point ran with its verdict recorded, every AT point beside
an LT one; each design's completion does not fall as the operation grows (beyond 1%); and the
report names the fastest design at every size two designs ran and sets AT beside LT."""

import csv
import glob
import json
import os
import sys

out = sys.argv[1]
failures = []
csvs = sorted(glob.glob(os.path.join(out, "*.csv")))
if not csvs:
    sys.exit(f"check.py: no CSV in {out}")
summary = json.load(open(os.path.join(out, "summary.json")))
report = open(os.path.join(out, "REPORT.md")).read()
machines = {}  # OP_NODES: {(mode, design): [(bytes, cycles)]}
for path in csvs:
    name = "_".join(os.path.basename(path)[:-4].split("_")[:2])
    points = machines.setdefault(name, {})
    for r in csv.DictReader(open(path, newline="")):
        mode = r.get("sim.mode") or "lt"
        if r["status"] != "ok" or (mode == "lt" and not r.get("lt_validity.verdict")):
            failures.append(f"{path}: point {r['point']} has no results or no LT verdict")
            continue
        points.setdefault((mode, r["workload.algorithm"]), []).append(
            (int(r["workload.bytes"]), float(r["completion_cycles.mean"])))
for name, points in machines.items():
    for ext in ("png", "svg"):
        if not os.path.exists(os.path.join(out, f"{name}.{ext}")):
            failures.append(f"{name}.{ext} missing")
    for (mode, design), line in points.items():
        line.sort()
        for (b0, c0), (b1, c1) in zip(line, line[1:]):
            if c1 < c0 * 0.99:
                failures.append(f"{name}: {design} ({mode}) faster at {b1} bytes ({c1:.0f} cycles) "
                                f"than at {b0} ({c0:.0f})")
    lt_sizes = {}
    for (mode, design), line in points.items():
        if mode == "lt":
            for b, _ in line:
                lt_sizes[b] = lt_sizes.get(b, 0) + 1
    contested = sum(1 for n in lt_sizes.values() if n > 1)
    if len(summary["sweeps"].get(name, [])) != contested:
        failures.append(f"{name}: summary.json names the fastest at "
                        f"{len(summary['sweeps'].get(name, []))} of {contested} sizes")
    at = [(d, b) for (mode, d), line in points.items() if mode == "at" for b, _ in line]
    beside = {(p["design"], p["bytes"]) for p in summary["at"].get(name, [])}
    if any(p not in beside for p in at):
        failures.append(f"{name}: AT points without LT's beside them in summary.json")
    op, nodes = name.split("_")
    if f"### {op}, {nodes} nodes" not in report:
        failures.append(f"{name}: no section in REPORT.md")
if failures:
    sys.exit("check.py: " + "; ".join(failures))
print(f"check.py: {len(csvs)} sweeps of {len(machines)} machines checked")
