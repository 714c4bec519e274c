#!/usr/bin/env python3
"""Checks a regenerated collective-design study (regress/collective_design/run): every figure,
CSV and the report are there; every point ran with LT's verdict recorded; each design's
completion does not fall as the operation grows (beyond 1%); and the report names the fastest
design at every size."""

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
for path in csvs:
    name = os.path.basename(path)[:-4]
    for ext in ("png", "svg"):
        if not os.path.exists(os.path.join(out, f"{name}.{ext}")):
            failures.append(f"{name}.{ext} missing")
    designs = {}
    for r in csv.DictReader(open(path, newline="")):
        if r["status"] != "ok" or not r.get("lt_validity.verdict"):
            failures.append(f"{name}: point {r['point']} has no results or no LT verdict")
            continue
        designs.setdefault(r["workload.algorithm"], []).append(
            (int(r["workload.bytes"]), float(r["completion_cycles.mean"])))
    for design, points in designs.items():
        points.sort()
        for (b0, c0), (b1, c1) in zip(points, points[1:]):
            if c1 < c0 * 0.99:
                failures.append(f"{name}: {design} faster at {b1} bytes ({c1:.0f} cycles) than at "
                                f"{b0} ({c0:.0f})")
    sizes = {b for points in designs.values() for b, _ in points}
    if len(summary["sweeps"].get(name, [])) != len(sizes):
        failures.append(f"{name}: summary.json names the fastest at {len(summary['sweeps'].get(name, []))} of {len(sizes)} sizes")
    if f"### {name.rsplit('_', 1)[0]}, {name.rsplit('_', 1)[1]} nodes" not in report:
        failures.append(f"{name}: no section in REPORT.md")
if failures:
    sys.exit("check.py: " + "; ".join(failures))
print(f"check.py: {len(csvs)} sweeps checked")
